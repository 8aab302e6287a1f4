import { Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  IconCalendarEvent,
  IconCalendarOff,
  IconCalendarQuestion,
  IconFileInvoice,
  IconMailExclamation,
  IconMessageExclamation,
  IconPigMoney,
  IconPencilDollar,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatLongDate, weekdayOf } from '#shared/dates';
import { paths } from '#shared/paths';
import type { NeedsYouList, NeedsYouToday } from '#shared/schemas/dashboard';
import { useNeedsYouToday } from '../api/dashboard';

interface ListSpec {
  key: Exclude<keyof NeedsYouToday, 'date'>;
  title: string;
  icon: Icon;
  /** Where each record opens. */
  open: (id: string) => string;
  /** The list where the owner sees them all, when there is one. */
  all?: { to: string; label: string };
  empty: string;
}

const LISTS: ListSpec[] = [
  {
    key: 'visits',
    title: "Today's visits",
    icon: IconCalendarEvent,
    open: paths.admin.job,
    all: { to: paths.admin.calendar, label: 'Open the calendar' },
    empty: 'No visits booked today.',
  },
  {
    key: 'unconfirmedVisits',
    title: 'Not confirmed for tomorrow',
    icon: IconCalendarQuestion,
    open: paths.admin.job,
    all: { to: paths.admin.calendar, label: 'Open the calendar' },
    empty: 'Every visit tomorrow is confirmed.',
  },
  {
    key: 'acceptedRequests',
    title: 'Requests to quote',
    icon: IconPencilDollar,
    open: paths.admin.quoteRequest,
    all: { to: `${paths.admin.quoteRequests}?status=Accepted`, label: 'See every accepted request' },
    empty: 'Every accepted request has its quote.',
  },
  {
    key: 'jobsWithoutVisit',
    title: 'Jobs with no visit',
    icon: IconCalendarOff,
    open: paths.admin.job,
    all: { to: paths.admin.jobs, label: 'See the jobs' },
    empty: 'Every open job has a visit booked.',
  },
  {
    key: 'jobsToInvoice',
    title: 'Completed, not invoiced',
    icon: IconFileInvoice,
    open: paths.admin.job,
    all: { to: `${paths.admin.jobs}?status=Completed`, label: 'See the completed jobs' },
    empty: 'Every completed job has its invoice.',
  },
  {
    key: 'unpaidDeposits',
    title: 'Unpaid deposits',
    icon: IconPigMoney,
    open: paths.admin.invoice,
    all: { to: paths.admin.invoices, label: 'See the invoices' },
    empty: 'No deposit is waiting to be paid.',
  },
  {
    key: 'failingEmails',
    title: 'E-mails not delivered',
    icon: IconMailExclamation,
    open: paths.admin.quoteRequest,
    empty: 'Every e-mail went out.',
  },
  {
    key: 'failingTexts',
    title: 'Texts not delivered',
    icon: IconMessageExclamation,
    open: paths.admin.client,
    empty: 'Every text this week went out.',
  },
];

function WaitingList({ spec, list }: { spec: ListSpec; list: NeedsYouList | undefined }) {
  const headingId = `needs-you-${spec.key}`;
  const more = list ? list.count - list.items.length : 0;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" wrap="nowrap" gap="xs" mb="xs">
        <Group gap={8} wrap="nowrap">
          <spec.icon size={20} aria-hidden />
          <Title order={3} size="h5" id={headingId}>
            {spec.title}
          </Title>
        </Group>
        {list ? (
          <Badge
            variant={list.count ? 'filled' : 'light'}
            color={list.count ? 'red.9' : 'gray'}
            aria-label={`${list.count} waiting`}
          >
            {list.count}
          </Badge>
        ) : (
          <Skeleton h={20} w={28} />
        )}
      </Group>
      {!list ? (
        <Stack gap={6}>
          <Skeleton h={16} />
          <Skeleton h={16} w="70%" />
        </Stack>
      ) : list.count === 0 ? (
        <Text size="sm" c="dimmed">
          {spec.empty}
        </Text>
      ) : (
        <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {list.items.map((item, i) => (
            <li key={`${item.id ?? 'none'}-${i}`}>
              {item.id ? (
                <Anchor component={Link} to={spec.open(item.id)} fw={600} size="sm">
                  {item.label}
                </Anchor>
              ) : (
                <Text fw={600} size="sm">
                  {item.label}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {item.detail}
              </Text>
            </li>
          ))}
        </Stack>
      )}
      {list && spec.all && list.count > 0 ? (
        <Anchor component={Link} to={spec.all.to} size="sm" mt="xs" display="inline-block">
          {more > 0 ? `${more} more: ${spec.all.label.toLowerCase()}` : spec.all.label}
        </Anchor>
      ) : list && more > 0 ? (
        <Text size="sm" c="dimmed" mt="xs">
          and {more} more
        </Text>
      ) : null}
    </Paper>
  );
}

/** The dashboard's "Needs you today": what waits for the owner, each record a link to where it is done. */
export function NeedsYouTodayPanel() {
  const today = useNeedsYouToday();
  const data = today.data;
  const nothing = data && LISTS.every(({ key }) => data[key].count === 0);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mb="lg" component="section" aria-labelledby="needs-you">
      <Group justify="space-between" align="baseline" mb="sm" gap="xs">
        <Title order={2} size="h3" id="needs-you">
          Needs you today
        </Title>
        {data ? (
          <Text size="sm" c="dimmed">
            {weekdayOf(data.date)}, {formatLongDate(data.date)}
          </Text>
        ) : null}
      </Group>
      {today.isError ? (
        <Text c="red.8">Could not load what needs you today. Reload the page to try again.</Text>
      ) : nothing ? (
        <Text c="dimmed" py="sm">
          Nothing needs you today: no visits booked, every request quoted, every job scheduled and billed, no deposit
          owed and every e-mail delivered.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {LISTS.map((spec) => (
            <WaitingList key={spec.key} spec={spec} list={data?.[spec.key]} />
          ))}
        </SimpleGrid>
      )}
    </Paper>
  );
}
