import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { UserRole } from '#shared/constants';
import type { Access, TeamRole } from '#shared/roles';
import { paths } from '#shared/paths';
import { ApiError, tokenStore } from '../../../lib/api-client';
import { TeamRoleContext, useMay } from '../../../lib/team-role';
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

const CONFIRMED_KEY = 'confirmed-role';
interface Confirmed {
  role: UserRole;
  teamRole?: TeamRole | undefined;
}
/** The roles the server last confirmed for this token (the token's end names it; nothing secret is kept). */
const confirmed = {
  get(token: string): Confirmed | undefined {
    try {
      const saved = JSON.parse(localStorage.getItem(CONFIRMED_KEY) ?? 'null') as (Confirmed & { token: string }) | null;
      return saved && saved.token === token.slice(-24) ? { role: saved.role, teamRole: saved.teamRole } : undefined;
    } catch {
      return undefined;
    }
  },
  set: (token: string, { role, teamRole }: Confirmed) =>
    localStorage.setItem(CONFIRMED_KEY, JSON.stringify({ token: token.slice(-24), role, teamRole })),
};

/**
 * A page inside the guard that needs more than the area's role (the Owner's pages): any other role
 * is sent to the 401 page, as the spec's guard does for a wrong role.
 */
export function RequireAccess({ access, children }: { access: Access; children: ReactNode }) {
  return useMay(access) ? children : <Navigate to={paths.unauthorized} replace />;
}

/**
 * The route guard: asks the server for the role behind the stored token. No token leads to /login,
 * a refused one to /login saying the session ended, both returning here after signing in; a role
 * not in `allow` to /unauthorized. When the server cannot be reached the token is kept and the
 * page offers to try again (a crew phone on a bad signal is still signed in); a token whose role the
 * server confirmed before goes on to its pages, which show what this browser kept (the server still
 * checks every call).
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
  const token = tokenStore.get()!;
  const known = confirmed.get(token);
  if (role.isError && !refused && !(role.error instanceof ApiError) && known && allow.includes(known.role))
    return <TeamRoleContext.Provider value={known.teamRole}>{children}</TeamRoleContext.Provider>;
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
  // Settings require two-step sign-in of this account and it is not on: Your account first.
  if (role.data.twoStepSetupRequired && location.pathname !== paths.admin.account)
    return <Navigate to={paths.admin.account} replace />;
  const { userRole, teamRole } = role.data;
  if (known?.role !== userRole || known.teamRole !== teamRole) confirmed.set(token, { role: userRole, teamRole });
  return <TeamRoleContext.Provider value={teamRole}>{children}</TeamRoleContext.Provider>;
}
