import '@mantine/charts/styles.layer.css';
import { BarChart } from '@mantine/charts';
import { Alert, Box, Group, Progress, SimpleGrid, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { formatDollars } from '#shared/money';
import { DownloadButtons, MONEY_FILES } from '../../../components/download-buttons';
import { PageHeader } from '../../../components/page-header';
import { SectionCard } from '../../../components/section-card';
import { useReports } from '../api/reports';
import { AccountantCard } from '../components/accountant-card';

const monthLabel = (month: string) =>
  new Date(`${month}-15T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });

const days = (value: number | null) => (value === null ? 'Not yet known' : `${value} ${value === 1 ? 'day' : 'days'}`);

/** One figure of a card: its label, the figure large, and what it counts. */
function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      {note ? (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      ) : null}
    </div>
  );
}

/** The owner's numbers: money received by month, how far requests get, how long things take, and the files. */
export default function ReportsPage() {
  const reports = useReports();
  const r = reports.data;
  const steps = r
    ? ([
        ['Quote requests', r.funnel.requests],
        ['Quoted', r.funnel.quoted],
        ['Accepted', r.funnel.accepted],
        ['Paid in full', r.funnel.paid],
      ] as const)
    : [];
  return (
    <>
      <PageHeader title="Reports" actions={<DownloadButtons files={MONEY_FILES} />} />
      {reports.isError ? (
        <Alert color="red" title="The reports could not be loaded">
          {reports.error.message}
        </Alert>
      ) : (
        <Stack gap="md" maw={1100}>
          <SectionCard title="Revenue by month">
            <Text size="sm" c="dimmed" mb="sm">
              Payments received, without sales tax
            </Text>
            {r ? (
              <Box role="figure" aria-label="Revenue by month">
                <BarChart
                  h={280}
                  data={r.revenueByMonth.map((m) => ({ month: monthLabel(m.month), Revenue: m.revenue }))}
                  dataKey="month"
                  series={[{ name: 'Revenue', color: 'brand.6' }]}
                  valueFormatter={(value) => formatDollars(value)}
                  tickLine="y"
                />
                {/* The same figures as text, for a screen reader. */}
                <VisuallyHidden component="ul">
                  {r.revenueByMonth.map((m) => (
                    <li key={m.month}>
                      {monthLabel(m.month)}: {formatDollars(m.revenue)}
                    </li>
                  ))}
                </VisuallyHidden>
              </Box>
            ) : (
              <Skeleton h={280} />
            )}
          </SectionCard>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <SectionCard title="From request to payment">
              <Stack gap="sm" aria-label="Funnel">
                {r
                  ? steps.map(([label, value]) => (
                      <div key={label}>
                        <Group justify="space-between">
                          <Text size="sm">{label}</Text>
                          <Text size="sm" fw={700}>
                            {value}
                          </Text>
                        </Group>
                        <Progress
                          value={r.funnel.requests ? (value / r.funnel.requests) * 100 : 0}
                          aria-label={`${label}: ${value}`}
                        />
                      </div>
                    ))
                  : [0, 1, 2, 3].map((i) => <Skeleton key={i} h={28} />)}
              </Stack>
            </SectionCard>
            <SectionCard title="How long it takes">
              <Stack gap="xs">
                <Text size="sm">
                  From a request to its first quote: <b>{r ? days(r.averageDaysToQuote) : '…'}</b>
                </Text>
                <Text size="sm">
                  From a finished job to its last payment: <b>{r ? days(r.averageDaysToPayment) : '…'}</b>
                </Text>
                <Text size="xs" c="dimmed">
                  Averages over everything recorded so far.
                </Text>
              </Stack>
            </SectionCard>
          </SimpleGrid>
          <SectionCard title="Repeating work" region>
            {!r ? (
              <Skeleton h={60} />
            ) : r.recurring.plans === 0 ? (
              <Text size="sm" c="dimmed">
                No repeating work yet. On a job’s page, “Make visits repeat” books regular visits (gutters, upkeep) and
                can invoice them by the visit or the month.
              </Text>
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" aria-label="Repeating work figures">
                <Figure label="Plans running" value={String(r.recurring.plans)} />
                <Figure label="Billed by the month" value={`${formatDollars(r.recurring.monthly)} a month`} />
                <Figure
                  label={`Next ${r.recurring.days} days`}
                  value={`${r.recurring.visitsAhead} ${r.recurring.visitsAhead === 1 ? 'visit' : 'visits'}, ${formatDollars(r.recurring.ahead)}`}
                  note="to invoice by the plans, before sales tax"
                />
              </SimpleGrid>
            )}
          </SectionCard>
          <AccountantCard />
        </Stack>
      )}
    </>
  );
}
