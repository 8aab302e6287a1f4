import {
  Anchor,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconAlarm, IconCash, IconChecks, IconHourglass, IconReceipt, type Icon } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { formatDollars } from '#shared/money';
import { paths } from '#shared/paths';
import type { QuoteStatus } from '#shared/constants';
import type { DashboardStats } from '#shared/schemas/staff-quote-requests';
import { QUOTE_STATE_LABELS } from '#shared/statuses';
import { ClientLink } from '../../../components/client-link';
import { PageHeader } from '../../../components/page-header';
import { ScrollTable } from '../../../components/scroll-table';
import { StatusText } from '../../../components/status-text';
import { useDashboardStats, usePendingRequests } from '../api/dashboard';
import { NeedsYouTodayPanel } from '../components/needs-you-today';
import classes from './dashboard-page.module.css';

function Tile({
  label,
  value,
  icon: TileIcon,
  loading,
  onClick,
  hint,
}: {
  label: string;
  value: string;
  icon: Icon;
  loading: boolean;
  onClick: () => void;
  hint: string;
}) {
  return (
    <UnstyledButton
      onClick={onClick}
      className={classes.tile}
      aria-label={`${label}: ${loading ? 'loading' : value}. ${hint}`}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="sm" fw={600} c="dimmed">
            {label}
          </Text>
          {loading ? <Skeleton h={36} w={90} mt={6} /> : <Text className={classes.value}>{value}</Text>}
        </div>
        <ThemeIcon size={44} radius="md" variant="light">
          <TileIcon size={24} aria-hidden />
        </ThemeIcon>
      </Group>
      <Text size="xs" c="dimmed" mt="sm">
        {hint}
      </Text>
    </UnstyledButton>
  );
}

/** The sent quotes by where they stand, each opening the request list filtered to them. */
const QUOTE_FIGURES = [
  { key: 'awaiting', state: 'Pending' },
  { key: 'questions', state: 'Requested More Info' },
  { key: 'accepted', state: 'Accepted' },
  { key: 'declined', state: 'Declined' },
] as const satisfies readonly { key: keyof DashboardStats['quotes']; state: QuoteStatus }[];

function Figure({
  label,
  value,
  loading,
  to,
}: {
  label: string;
  value: number | undefined;
  loading: boolean;
  to?: string;
}) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">
        {to ? (
          <Anchor component={Link} to={to} c="dimmed" underline="always">
            {label}
          </Anchor>
        ) : (
          label
        )}
      </Text>
      {loading ? (
        <Skeleton h={28} w={40} />
      ) : (
        <Text fw={700} size="xl">
          {value ?? 0}
        </Text>
      )}
    </Stack>
  );
}

export default function DashboardPage() {
  const navigate = useNavigate();
  const stats = useDashboardStats();
  const pending = usePendingRequests(10);
  const s = stats.data;

  return (
    <>
      <PageHeader title="Dashboard" />
      <NeedsYouTodayPanel />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        <Tile
          label="Total Completed Jobs"
          value={String(s?.completedJobs ?? 0)}
          icon={IconChecks}
          loading={stats.isPending}
          hint="See the jobs"
          onClick={() => navigate(`${paths.admin.jobs}?status=Completed`)}
        />
        <Tile
          label="Pending Quote Requests"
          value={String(s?.pendingQuoteRequests ?? 0)}
          icon={IconHourglass}
          loading={stats.isPending}
          hint="Review the pending requests"
          onClick={() => navigate(`${paths.admin.quoteRequests}?status=Pending`)}
        />
        <Tile
          label="Revenue"
          value={formatDollars(s?.revenue ?? 0)}
          icon={IconCash}
          loading={stats.isPending}
          hint={`Payments received, without sales tax: ${formatDollars(s?.revenueThisMonth ?? 0)} this month`}
          onClick={() => navigate(paths.admin.invoices)}
        />
        <Tile
          label="Outstanding"
          value={formatDollars(s?.outstanding ?? 0)}
          icon={IconReceipt}
          loading={stats.isPending}
          hint="Still owed on sent invoices"
          onClick={() => navigate(paths.admin.invoices)}
        />
        <Tile
          label="Overdue Invoices"
          value={String(s?.overdueInvoices ?? 0)}
          icon={IconAlarm}
          loading={stats.isPending}
          hint="Past their due date"
          onClick={() => navigate(paths.admin.invoices)}
        />
      </SimpleGrid>

      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mt="lg">
        <Title order={2} size="h3">
          Client Activity
        </Title>
        <Group gap="xl" mt="sm">
          <Figure label="New quote requests this week" value={s?.newThisWeek} loading={stats.isPending} />
          <Figure label="New quote requests this month" value={s?.newThisMonth} loading={stats.isPending} />
        </Group>
        <Title order={3} size="h4" mt="lg" mb="xs">
          Sent quotes
        </Title>
        <Group gap="xl">
          {QUOTE_FIGURES.map(({ key, state }) => (
            <Figure
              key={key}
              label={QUOTE_STATE_LABELS[state]}
              value={s?.quotes[key]}
              loading={stats.isPending}
              to={`${paths.admin.quoteRequests}?status=${encodeURIComponent(`Quote: ${QUOTE_STATE_LABELS[state]}`)}`}
            />
          ))}
        </Group>
        <Title order={3} size="h4" mt="lg" mb="xs">
          Recent pending requests
        </Title>
        <ScrollTable label="Recent pending requests" minWidth={560}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Client Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Phone</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Action</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pending.isPending
                ? Array.from({ length: 5 }, (_, i) => (
                    <Table.Tr key={i}>
                      {Array.from({ length: 5 }, (__, j) => (
                        <Table.Td key={j}>
                          <Skeleton h={16} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : pending.data?.map((q) => (
                    <Table.Tr key={q._id}>
                      <Table.Td>
                        <ClientLink clientId={q.clientId} name={q.contactPerson.name} />
                      </Table.Td>
                      <Table.Td>{q.contactPerson.email || '—'}</Table.Td>
                      <Table.Td>{q.contactPerson.phone || '—'}</Table.Td>
                      <Table.Td>
                        <StatusText status={q.quoteStatus} size="sm" />
                      </Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={paths.admin.quoteRequest(q._id)} fw={600}>
                          View
                        </Anchor>
                      </Table.Td>
                    </Table.Tr>
                  ))}
              {pending.data?.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text c="dimmed" ta="center" py="md">
                      No pending requests: all caught up.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      </Paper>
    </>
  );
}
