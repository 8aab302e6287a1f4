import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { UserRole } from '../../../../shared/constants';
import { paths } from '../../../../shared/paths';
import { ApiError, tokenStore } from '../../../lib/api-client';
import { useUserRole } from '../api/session';

export function WaitScreen({ title, text }: { title: string; text: string }) {
  return (
    <Center mih="100vh" p="lg">
      <Stack align="center" ta="center" gap="sm" role="status">
        <Loader size="lg" />
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed">{text}</Text>
      </Stack>
    </Center>
  );
}

/**
 * The route guard: asks the server for the role behind the stored token. No token leads to /login,
 * a refused one to /login saying the session ended, both returning here after signing in; a role
 * not in `allow` to /unauthorized. When the server cannot be reached the token is kept and the
 * page offers to try again (a crew phone on a bad signal is still signed in).
 */
export function RequireRole({ allow, children }: { allow: UserRole[]; children: ReactNode }) {
  const role = useUserRole();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  if (!tokenStore.get()) return <Navigate to={paths.loginFor(here)} replace />;
  if (role.isPending)
    return (
      <WaitScreen
        title="Authorizing..."
        text="Please wait while we confirm that you have the permission to view this route."
      />
    );
  const refused = role.isError ? role.error instanceof ApiError && role.error.status === 401 : !role.data.valid;
  if (role.isError && !refused)
    return (
      <Center mih="100vh" p="lg">
        <Stack align="center" ta="center" gap="sm" role="alert">
          <Title order={1} size="h2">
            Cannot reach the server
          </Title>
          <Text c="dimmed">Check the connection, then try again. You are still signed in.</Text>
          <Button onClick={() => void role.refetch()} loading={role.isFetching}>
            Try again
          </Button>
        </Stack>
      </Center>
    );
  if (refused || !role.data?.userRole) {
    tokenStore.clear();
    return <Navigate to={paths.loginFor(here, true)} replace />;
  }
  if (!allow.includes(role.data.userRole)) return <Navigate to={paths.unauthorized} replace />;
  return children;
}
