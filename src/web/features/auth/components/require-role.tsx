import { Center, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { UserRole } from '../../../../shared/constants';
import { paths } from '../../../../shared/paths';
import { tokenStore } from '../../../lib/api-client';
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
 * The route guard: asks the server for the role behind the stored token. No token or a refused
 * one leads to /login; a role not in `allow` to /unauthorized.
 */
export function RequireRole({ allow, children }: { allow: UserRole[]; children: ReactNode }) {
  const role = useUserRole();
  if (!tokenStore.get()) return <Navigate to={paths.login} replace />;
  if (role.isPending)
    return (
      <WaitScreen
        title="Authorizing..."
        text="Please wait while we confirm that you have the permission to view this route."
      />
    );
  if (role.isError || !role.data.valid || !role.data.userRole) {
    tokenStore.clear();
    return <Navigate to={paths.login} replace />;
  }
  if (!allow.includes(role.data.userRole)) return <Navigate to={paths.unauthorized} replace />;
  return children;
}
