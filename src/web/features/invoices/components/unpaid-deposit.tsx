import { Paper, Text } from '@mantine/core';
import { formatDollars } from '#shared/money';
import type { InvoiceView } from '#shared/schemas/invoices';

/** The deposit this invoice takes off, while the client has not paid all of it (the office should know). */
export function UnpaidDeposit({ invoice }: { invoice: InvoiceView }) {
  const deposit = invoice.creditedDeposit;
  if (!deposit || deposit.balance <= 0) return null;
  return (
    <Paper withBorder radius="md" p="sm" style={{ borderColor: 'var(--mantine-color-accent-7)', borderWidth: 2 }}>
      <Text size="sm" fw={700}>
        Deposit {deposit.number} is not paid yet
      </Text>
      <Text size="sm">
        {formatDollars(deposit.balance)} of it is still due. This invoice takes the whole deposit (
        {formatDollars(deposit.total)}) off, so the client pays that part on the deposit invoice, not twice.
      </Text>
    </Paper>
  );
}
