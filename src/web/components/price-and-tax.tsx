import { Checkbox, Group, NumberInput } from '@mantine/core';

/**
 * A price in dollars (two decimals, required) and whether sales tax is charged on it: what repeating
 * visits and service plans bill.
 */
export function PriceAndTax(props: {
  label: string;
  price: number | string;
  onPrice: (value: number | string) => void;
  error?: string | undefined;
  taxable: boolean;
  onTaxable: (taxable: boolean) => void;
}) {
  return (
    <Group align="flex-end" wrap="wrap">
      <NumberInput
        label={props.label}
        withAsterisk
        prefix="$"
        min={0}
        decimalScale={2}
        fixedDecimalScale
        thousandSeparator=","
        w={180}
        value={props.price}
        onChange={props.onPrice}
        error={props.error}
      />
      <Checkbox
        label="Charge sales tax"
        checked={props.taxable}
        onChange={(e) => props.onTaxable(e.currentTarget.checked)}
        mb={8}
      />
    </Group>
  );
}
