import { Group, Stack, Table, Text } from '@mantine/core';
import { formatDollars, formatRowAmount, invoiceRows } from '#shared/money';
import type { InvoiceView } from '#shared/schemas/invoices';
import { ScrollTable } from '../../../components/scroll-table';
import { useNarrowScreen } from '../../../lib/narrow-screen';

/** The lines and totals, read only (the office's sent invoice and the client's page). */
export function InvoiceLines({
  invoice,
}: {
  invoice: Pick<
    InvoiceView,
    | 'lines'
    | 'subtotal'
    | 'taxable'
    | 'tax'
    | 'taxRateBasisPoints'
    | 'total'
    | 'credit'
    | 'creditedNumber'
    | 'paid'
    | 'balance'
  >;
}) {
  const narrow = useNarrowScreen();
  return (
    <Stack gap="sm">
      {narrow ? (
        // On a phone: one line per row, its quantity and price under it, nothing to scroll sideways.
        <Stack gap={6} component="ul" aria-label="Invoice lines" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {invoice.lines.map((l, i) => (
            <Group component="li" key={i} justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text size="sm">{l.description}</Text>
                <Text size="xs" c="dimmed">
                  {l.quantity} × {formatDollars(l.unitPrice)}
                </Text>
              </div>
              <Text size="sm">{formatDollars(l.amount)}</Text>
            </Group>
          ))}
        </Stack>
      ) : (
        <ScrollTable label="Invoice lines" minWidth={420}>
          <Table verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Description</Table.Th>
                <Table.Th ta="right">Quantity</Table.Th>
                <Table.Th ta="right">Unit price</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoice.lines.map((l, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{l.description}</Table.Td>
                  <Table.Td ta="right">{l.quantity}</Table.Td>
                  <Table.Td ta="right">{formatDollars(l.unitPrice)}</Table.Td>
                  <Table.Td ta="right">{formatDollars(l.amount)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      <InvoiceTotalsRows invoice={invoice} />
    </Stack>
  );
}

/** Subtotal, "Tax 8% on $78.94", total, "Less deposit INV-…", payments and the balance, right-aligned. */
export function InvoiceTotalsRows({ invoice }: { invoice: Parameters<typeof invoiceRows>[0] }) {
  return (
    <Stack gap={2} align="flex-end" aria-label="Totals">
      {invoiceRows(invoice).map(({ label, amount, emphasis }) => (
        <Group key={label} gap="lg" justify="flex-end" wrap="nowrap">
          <Text size="sm" fw={emphasis ? 700 : 400} ta="right">
            {label}
          </Text>
          <Text size="sm" fw={emphasis ? 700 : 400} miw={100} ta="right" style={{ whiteSpace: 'nowrap' }}>
            {formatRowAmount(amount)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
