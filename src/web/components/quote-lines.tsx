import { Divider, Stack, Table, Text } from '@mantine/core';
import { formatDollars, type PricedQuote } from '#shared/money';
import { QuoteTotals } from './quote-totals';
import { ScrollTable } from './scroll-table';

type QuoteLinesProps = PricedQuote;

/** An optional line's mark: chosen by the client, or not (yet). */
const optionMark = (line: { optional: boolean; included: boolean }) =>
  line.optional ? (line.included ? ' (optional, chosen)' : ' (optional, not in the total)') : '';

/** A priced line as a row: what it is, its price, how many, and what it comes to (dollars). */
interface LineRow {
  label: string;
  optional: boolean;
  included: boolean;
  price: number;
  /** How many (hours, a quantity), or what stands for it (a flat price has none). */
  count: number | string;
  amount: number;
}

interface LinesTableProps {
  title: string;
  empty: string;
  /** The four column names: what, price, how many, amount. */
  columns: [string, string, string, string];
  rows: LineRow[];
}

/** One kind of line (Materials or Labor) as a table under its heading, or the words saying there is none. */
function LinesTable({ title, empty, columns: [what, price, count, amount], rows }: LinesTableProps) {
  return (
    <div>
      <Text fw={700} size="sm" mb={4}>
        {title}
      </Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <ScrollTable label={title} minWidth={420}>
          <Table verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{what}</Table.Th>
                <Table.Th ta="right">{price}</Table.Th>
                <Table.Th ta="right">{count}</Table.Th>
                <Table.Th ta="right">{amount}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, i) => (
                <Table.Tr key={i}>
                  <Table.Td>
                    {row.label}
                    {optionMark(row)}
                  </Table.Td>
                  <Table.Td ta="right">{formatDollars(row.price)}</Table.Td>
                  <Table.Td ta="right">{row.count}</Table.Td>
                  <Table.Td ta="right">{formatDollars(row.amount)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </div>
  );
}

/** A quote's materials and labor with its totals, as staff read it. */
export function QuoteLines({ materials, labor, ...totals }: QuoteLinesProps) {
  return (
    <Stack gap="md">
      <LinesTable
        title="Materials"
        empty="No materials"
        columns={['Name', 'Unit Price', 'Quantity', 'Subtotal']}
        rows={materials.map((m) => ({
          label: m.name,
          optional: m.optional,
          included: m.included,
          price: m.unitPrice,
          count: m.quantity,
          amount: m.subtotal,
        }))}
      />
      <LinesTable
        title="Labor"
        empty="No labor"
        columns={['Description', 'Rate or Price', 'Hours', 'Total']}
        rows={labor.map((l) => ({
          label: l.flat ? `${l.description || 'Labor'} (flat price)` : l.description || 'Labor',
          optional: l.optional,
          included: l.included,
          price: l.hourlyRate,
          count: l.flat ? '—' : l.hours,
          amount: l.total,
        }))}
      />
      <Divider />
      <Stack gap={2} maw={320} ml="auto" w="100%">
        <QuoteTotals totals={totals} />
      </Stack>
    </Stack>
  );
}
