import { Group, Stack, Text, type MantineSize } from '@mantine/core';
import { formatDollars, type PricedQuote, totalsRows } from '#shared/money';

interface QuoteTotalsProps {
  totals: Pick<
    PricedQuote,
    'totalCostBeforeTax' | 'taxableBeforeTax' | 'taxCost' | 'totalCostAfterTax' | 'taxRateBasisPoints'
  >;
  /** The size of the subtotal and tax lines. */
  size?: MantineSize;
  /** The size and weight of the total line. */
  totalSize?: MantineSize;
  totalWeight?: number;
}

/** Subtotal, tax and total of a priced document: the one way every screen shows them. */
export function QuoteTotals({ totals, size = 'sm', totalSize, totalWeight = 700 }: QuoteTotalsProps) {
  return (
    <Stack gap={2}>
      {totalsRows(totals).map((row) => (
        <Group key={row.label} justify="space-between">
          <Text size={row.emphasis ? totalSize : size} fw={row.emphasis ? totalWeight : undefined}>
            {row.label}
          </Text>
          <Text size={row.emphasis ? totalSize : size} fw={row.emphasis ? totalWeight : undefined}>
            {formatDollars(row.amount)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
