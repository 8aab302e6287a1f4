import {
  ActionIcon,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { formatDollars } from '../../../../shared/money';
import { ScrollTable } from '../../../components/scroll-table';
import { useNarrowScreen } from '../../../lib/narrow-screen';

export type EditLine = {
  key: string;
  description: string;
  quantity: number | string;
  unitPrice: number | string;
  taxable: boolean;
};

const amountOf = (l: EditLine) => formatDollars(Math.round(Number(l.quantity) * Number(l.unitPrice) * 100) / 100 || 0);

interface DraftLinesProps {
  lines: EditLine[];
  onChange: (key: string, change: Partial<EditLine>) => void;
  onRemove: (key: string) => void;
}

/** A line's three inputs, labelled for screen readers by the line's number. */
function lineInputs({
  line,
  index,
  onChange,
  narrowLabel,
}: {
  line: EditLine;
  index: number;
  onChange: DraftLinesProps['onChange'];
  /** The checkbox's visible label on a phone's card (the table's column says it at a desk). */
  narrowLabel?: string;
}) {
  const n = index + 1;
  return {
    description: (
      <TextInput
        aria-label={`Line ${n} description`}
        value={line.description}
        maxLength={500}
        onChange={(e) => onChange(line.key, { description: e.currentTarget.value })}
      />
    ),
    quantity: (
      <NumberInput
        aria-label={`Line ${n} quantity`}
        value={line.quantity}
        min={0.01}
        decimalScale={2}
        onChange={(v) => onChange(line.key, { quantity: v })}
      />
    ),
    unitPrice: (
      <NumberInput
        aria-label={`Line ${n} unit price`}
        prefix="$"
        value={line.unitPrice}
        decimalScale={2}
        fixedDecimalScale
        onChange={(v) => onChange(line.key, { unitPrice: v })}
      />
    ),
    taxable: (
      <Checkbox
        aria-label={`Line ${n} taxed`}
        label={narrowLabel}
        checked={line.taxable}
        onChange={(e) => onChange(line.key, { taxable: e.currentTarget.checked })}
      />
    ),
  };
}

function RemoveLine({ index, onClick }: { index: number; onClick: () => void }) {
  return (
    <ActionIcon variant="subtle" color="red" aria-label={`Remove line ${index + 1}`} onClick={onClick}>
      <IconTrash size={16} />
    </ActionIcon>
  );
}

/**
 * A draft invoice's lines, edited in place: a table at a desk; on a phone each line is a card
 * (description, then quantity and price side by side, then its amount), so nothing scrolls sideways.
 */
export function DraftLines({ lines, onChange, onRemove }: DraftLinesProps) {
  const narrow = useNarrowScreen();
  if (narrow) {
    return (
      <Stack gap="xs" aria-label="Invoice lines" role="group">
        {lines.map((l, i) => {
          const inputs = lineInputs({ line: l, index: i, onChange, narrowLabel: 'Taxed' });
          return (
            <Paper key={l.key} withBorder radius="md" p="sm">
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm" fw={600}>
                    Line {i + 1}
                  </Text>
                  <RemoveLine index={i} onClick={() => onRemove(l.key)} />
                </Group>
                {inputs.description}
                <Group grow wrap="nowrap" gap="xs">
                  {inputs.quantity}
                  {inputs.unitPrice}
                </Group>
                <Group justify="space-between" wrap="nowrap">
                  {inputs.taxable}
                  <Text size="sm" ta="right">
                    Amount: <b>{amountOf(l)}</b>
                  </Text>
                </Group>
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    );
  }
  return (
    <ScrollTable label="Invoice lines" minWidth={620}>
      <Table verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Description</Table.Th>
            <Table.Th w={110}>Quantity</Table.Th>
            <Table.Th w={140}>Unit price</Table.Th>
            <Table.Th w={70}>Taxed</Table.Th>
            <Table.Th w={110}>Amount</Table.Th>
            <Table.Th w={50}>
              <VisuallyHidden>Remove</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((l, i) => {
            const inputs = lineInputs({ line: l, index: i, onChange });
            return (
              <Table.Tr key={l.key}>
                <Table.Td>{inputs.description}</Table.Td>
                <Table.Td>{inputs.quantity}</Table.Td>
                <Table.Td>{inputs.unitPrice}</Table.Td>
                <Table.Td>{inputs.taxable}</Table.Td>
                <Table.Td>{amountOf(l)}</Table.Td>
                <Table.Td>
                  <RemoveLine index={i} onClick={() => onRemove(l.key)} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
