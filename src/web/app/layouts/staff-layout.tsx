// The staff screens use many more Mantine components than the public pages (see public-styles.css).
import '@mantine/core/styles.layer.css';
import {
  AppShell,
  Box,
  Burger,
  Group,
  NavLink as MantineNavLink,
  ScrollArea,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconBook,
  IconCalendar,
  IconClipboardList,
  IconHome,
  IconLayoutDashboard,
  IconLogout,
  IconTool,
  IconFileInvoice,
  IconChartBar,
  IconUsers,
  IconClock,
  IconSettings,
  IconHistory,
  IconDatabase,
  IconHeartbeat,
  IconUserShield,
  IconAddressBook,
  type Icon,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import type { UserRole } from '#shared/constants';
import { allows, TEAM_ROLE_LABELS, type Access } from '#shared/roles';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import { BrandMark } from '../../components/logo';
import { RequireAccess, RequireRole } from '../../features/auth/components/require-role';
import { useTeamRole } from '../../lib/team-role';
import { logout } from '../../features/auth/api/session';
import { registerCrewApp } from '../../lib/crew-app';
import { useSiteConfig } from '../../lib/site-config';
import { toast } from '../../lib/toast';
import classes from './staff-layout.module.css';

interface MenuItem {
  to: string;
  label: string;
  icon: Icon;
  end?: boolean;
  /** Shown only to the roles this allows (decision 042); by default everyone in the area. */
  access?: Access;
}

const adminMenu: MenuItem[] = [
  { to: paths.admin.dashboard, label: 'Dashboard', icon: IconLayoutDashboard, end: true },
  { to: paths.admin.calendar, label: 'Calendar', icon: IconCalendar },
  { to: paths.admin.quoteRequests, label: 'Quote Requests', icon: IconClipboardList },
  { to: paths.admin.clients, label: 'Clients', icon: IconAddressBook },
  { to: paths.admin.jobs, label: 'Jobs', icon: IconTool },
  { to: paths.admin.invoices, label: 'Invoices', icon: IconFileInvoice },
  { to: paths.admin.reports, label: 'Reports', icon: IconChartBar },
  { to: paths.admin.priceBook, label: 'Price book', icon: IconBook },
  { to: paths.admin.users, label: 'Users', icon: IconUsers, access: 'owner' },
  { to: paths.admin.activity, label: 'Activity', icon: IconHistory, access: 'owner' },
  { to: paths.admin.data, label: 'Your data', icon: IconDatabase, access: 'owner' },
  { to: paths.admin.system, label: 'System', icon: IconHeartbeat, access: 'owner' },
  { to: paths.admin.settings, label: 'Settings', icon: IconSettings, access: 'owner' },
  { to: paths.admin.account, label: 'Your account', icon: IconUserShield },
];

const employeeMenu: MenuItem[] = [
  { to: paths.employee.dashboard, label: 'Dashboard', icon: IconLayoutDashboard, end: true },
  { to: paths.employee.calendar, label: 'Calendar', icon: IconCalendar },
  { to: paths.employee.jobs, label: 'Jobs', icon: IconTool },
  { to: paths.employee.schedule, label: 'Set Schedule', icon: IconClock },
  { to: paths.employee.account, label: 'Your account', icon: IconUserShield },
];

/** The back office's frame: side menu (a drawer on phones), sign-out, and the guarded page. */
function StaffShell({ menu, area }: { menu: MenuItem[]; area: string }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { businessName } = useSiteConfig();
  const teamRole = useTeamRole();

  const [signingOut, setSigningOut] = useState(false);
  // The page is taken down first, so no query of it is left to fetch again; then the token is
  // forgotten (the server is told in the background), the data dropped, and the sign-in page shown.
  // Nothing after the click calls the API but the sign-out itself, even on a freshly loaded page.
  const signOut = () => {
    flushSync(() => setSigningOut(true));
    logout();
    void queryClient.cancelQueries().then(() => queryClient.clear());
    toast.success(messages.loggedOut);
    void navigate(paths.login, { replace: true });
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <AppShell.Header className={classes.header}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              color="white"
              aria-label={opened ? 'Close the menu' : 'Open the menu'}
            />
            <Link to={menu[0]!.to} className={classes.brand}>
              <BrandMark size={30} />
              <span>{businessName}</span>
            </Link>
          </Group>
          <Text size="sm" c="gray.2" visibleFrom="xs">
            {teamRole ? `${area} · ${TEAM_ROLE_LABELS[teamRole]}` : area}
          </Text>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label={`${area} menu`}>
        <AppShell.Section grow component={ScrollArea}>
          {menu
            .filter((item) => !item.access || allows(item.access, teamRole))
            .map((item) => (
              <MantineNavLink
                key={item.to}
                component={NavLink}
                to={item.to}
                end={item.end}
                label={item.label}
                leftSection={<item.icon size={20} aria-hidden />}
                onClick={close}
                className={classes.link}
              />
            ))}
          <MantineNavLink
            component={Link}
            to={paths.home}
            label="Home Page"
            leftSection={<IconHome size={20} aria-hidden />}
            className={classes.link}
          />
        </AppShell.Section>
        <AppShell.Section>
          <UnstyledButton onClick={signOut} className={classes.signOut}>
            <IconLogout size={20} aria-hidden /> Sign out
          </UnstyledButton>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main className={classes.main}>
        <Box maw={1200} mx="auto">
          {signingOut ? null : <Outlet />}
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}

export function StaffLayout({ role }: { role: UserRole }) {
  // Employees have their own area; admins may look at it too.
  const allow: UserRole[] = role === 'admin' ? ['admin'] : ['employee', 'admin'];
  return (
    <RequireRole allow={allow}>
      <StaffShell menu={role === 'admin' ? adminMenu : employeeMenu} area={role === 'admin' ? 'Admin' : 'Employee'} />
    </RequireRole>
  );
}

export const AdminLayout = () => <StaffLayout role="admin" />;

/** The Owner's pages of the back office: users, settings, the trail, backups and exports, the system. */
export const OwnerOnly = () => (
  <RequireAccess access="owner">
    <Outlet />
  </RequireAccess>
);
export function EmployeeLayout() {
  useEffect(registerCrewApp, []);
  return <StaffLayout role="employee" />;
}
