import { Divider, Stack, Table, Text } from '@mantine/core';
import { formatDollars, type PricedQuote } from '../../shared/money';
import { QuoteTotals } from './quote-totals';
import { ScrollTable } from './scroll-table';

type QuoteLinesProps = PricedQuote;

/** An optional line's mark: chosen by the client, or not (yet). */
const optionMark = (line: { optional: boolean; included: boolean }) =>
  line.optional ? (line.included ? ' (optional, chosen)' : ' (optional, not in the total)') : '';

/** A quote's materials and labor with its totals, as staff read it. */
export function QuoteLines({ materials, labor, ...totals }: QuoteLinesProps) {
  return (
    <Stack gap="md">
      <div>
        <Text fw={700} size="sm" mb={4}>
          Materials
        </Text>
        {materials.length === 0 ? (
          <Text size="sm" c="dimmed">
            No materials
          </Text>
        ) : (
          <ScrollTable label="Materials" minWidth={420}>
            <Table verticalSpacing={6}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th ta="right">Unit Price</Table.Th>
                  <Table.Th ta="right">Quantity</Table.Th>
                  <Table.Th ta="right">Subtotal</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {materials.map((m, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>
                      {m.name}
                      {optionMark(m)}
                    </Table.Td>
                    <Table.Td ta="right">{formatDollars(m.unitPrice)}</Table.Td>
                    <Table.Td ta="right">{m.quantity}</Table.Td>
                    <Table.Td ta="right">{formatDollars(m.subtotal)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
      </div>
      <div>
        <Text fw={700} size="sm" mb={4}>
          Labor
        </Text>
        {labor.length === 0 ? (
          <Text size="sm" c="dimmed">
            No labor
          </Text>
        ) : (
          <ScrollTable label="Labor" minWidth={420}>
            <Table verticalSpacing={6}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Description</Table.Th>
                  <Table.Th ta="right">Hourly Rate</Table.Th>
                  <Table.Th ta="right">Hours</Table.Th>
                  <Table.Th ta="right">Total</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {labor.map((l, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>
                      {l.description || 'Labor'}
                      {optionMark(l)}
                    </Table.Td>
                    <Table.Td ta="right">{formatDollars(l.hourlyRate)}</Table.Td>
                    <Table.Td ta="right">{l.hours}</Table.Td>
                    <Table.Td ta="right">{formatDollars(l.total)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
      </div>
      <Divider />
      <Stack gap={2} maw={320} ml="auto" w="100%">
        <QuoteTotals totals={totals} />
      </Stack>
    </Stack>
  );
}
