import { SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { MAX_ACCOUNTING_DAYS, type AccountingSystem } from '#shared/accounting';
import { addDays, todayIn } from '#shared/dates';
import { DownloadButtons } from '../../../components/download-buttons';
import { SectionCard } from '../../../components/section-card';
import { siteConfig } from '../../../lib/site-config';

/** Last month, in the business's time zone: what an accountant asks for most. */
function lastMonth(): { from: string; to: string } {
  const today = todayIn(siteConfig().timeZone);
  const firstOfThisMonth = `${today.slice(0, 8)}01`;
  const to = addDays(firstOfThisMonth, -1);
  return { from: `${to.slice(0, 8)}01`, to };
}

const SYSTEMS: { value: AccountingSystem; label: string }[] = [
  { value: 'quickbooks', label: 'QuickBooks Online' },
  { value: 'xero', label: 'Xero' },
];

/**
 * Reports → For your accountant (decision 043): the invoices, payments and customers of a date range
 * in the columns QuickBooks Online or Xero import.
 */
export function AccountantCard() {
  const [system, setSystem] = useState<AccountingSystem>('quickbooks');
  const [range, setRange] = useState(lastMonth);
  const days = (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000;
  const problem =
    !range.from || !range.to
      ? 'Choose both dates'
      : days < 0
        ? 'The end date must be on or after the start date'
        : days >= MAX_ACCOUNTING_DAYS
          ? `One file covers at most ${MAX_ACCOUNTING_DAYS} days`
          : undefined;
  const dateField = (key: 'from' | 'to', label: string, error?: string) => (
    <TextInput
      type="date"
      label={label}
      value={range[key]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setRange((r) => ({ ...r, [key]: value }));
      }}
      error={error}
    />
  );
  const query = `?from=${range.from}&to=${range.to}`;
  const file = (dataset: string, label: string) => ({
    label,
    path: `/accounting/${system}/${dataset}.csv${query}`,
    filename: `${system}-${dataset}-${range.from}-to-${range.to}.csv`,
  });
  return (
    <SectionCard title="For your accountant">
      <Stack gap="sm">
        <Text size="sm">
          The invoices sent, the payments and refunds, and the customers of a period, in the columns{' '}
          {system === 'xero' ? 'Xero' : 'QuickBooks Online'} imports. Each invoice adds up to what the client owes on
          it, with its sales tax; a final invoice takes its deposit off as lines of its own.
        </Text>
        <SegmentedControl
          aria-label="Accounting software"
          data={SYSTEMS}
          value={system}
          onChange={(value) => setSystem(value as AccountingSystem)}
          w={{ base: '100%', xs: 'auto' }}
          style={{ alignSelf: 'flex-start' }}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} maw={420}>
          {dateField('from', 'From')}
          {dateField('to', 'To', problem)}
        </SimpleGrid>
        {problem ? null : (
          <DownloadButtons
            files={[file('invoices', 'Invoices'), file('payments', 'Payments'), file('customers', 'Customers')]}
          />
        )}
        <Text size="xs" c="dimmed">
          Voided invoices are left out: void them in your books if you imported them before. Payments come as bank
          transactions ({system === 'xero' ? 'a bank statement' : 'the three-column upload'}), with the invoice number
          to match them by.
        </Text>
      </Stack>
    </SectionCard>
  );
}
