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
import { Controller, useWatch } from 'react-hook-form';
import { formatMoney } from '#shared/money';
import { ScrollTable } from '../../../components/scroll-table';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { lineAmountCents, type DraftFormControl } from '../lib/draft-form';

interface DraftLinesProps {
  control: DraftFormControl;
  /** The form's lines (useFieldArray's), by their stable ids. */
  fields: { id: string }[];
  onRemove: (index: number) => void;
}

interface LineProps {
  control: DraftFormControl;
  index: number;
  /** The checkbox's visible label on a phone's card (the table's column says it at a desk). */
  narrowLabel?: string;
}

/** A line's inputs, labelled for screen readers by the line's number, with the schema's messages under them. */
function lineInputs({ control, index, narrowLabel }: LineProps) {
  const n = index + 1;
  return {
    description: (
      <Controller
        control={control}
        name={`lines.${index}.description`}
        render={({ field, fieldState }) => (
          <TextInput
            aria-label={`Line ${n} description`}
            maxLength={500}
            {...field}
            error={fieldState.error?.message}
          />
        )}
      />
    ),
    // A number being typed ("", "-" before a discount) is kept as typed; the schema names what is wrong with it.
    quantity: (
      <Controller
        control={control}
        name={`lines.${index}.quantity`}
        render={({ field, fieldState }) => (
          <NumberInput
            aria-label={`Line ${n} quantity`}
            min={0.01}
            decimalScale={2}
            {...field}
            error={fieldState.error?.message}
          />
        )}
      />
    ),
    unitPrice: (
      <Controller
        control={control}
        name={`lines.${index}.unitPrice`}
        render={({ field, fieldState }) => (
          <NumberInput
            aria-label={`Line ${n} unit price`}
            prefix="$"
            decimalScale={2}
            fixedDecimalScale
            {...field}
            error={fieldState.error?.message}
          />
        )}
      />
    ),
    taxable: (
      <Controller
        control={control}
        name={`lines.${index}.taxable`}
        render={({ field: { value, onChange, ...field } }) => (
          <Checkbox
            aria-label={`Line ${n} taxed`}
            label={narrowLabel}
            checked={value ?? true}
            onChange={(e) => onChange(e.currentTarget.checked)}
            {...field}
          />
        )}
      />
    ),
  };
}

/** A line's amount, following its quantity and price as they are typed. */
function Amount({ control, index }: Omit<LineProps, 'narrowLabel'>) {
  const line = useWatch({ control, name: `lines.${index}` });
  return <>{formatMoney(lineAmountCents(line))}</>;
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
export function DraftLines({ control, fields, onRemove }: DraftLinesProps) {
  const narrow = useNarrowScreen();
  if (narrow) {
    return (
      <Stack gap="xs" aria-label="Invoice lines" role="group">
        {fields.map(({ id }, i) => {
          const inputs = lineInputs({ control, index: i, narrowLabel: 'Taxed' });
          return (
            <Paper key={id} withBorder radius="md" p="sm">
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm" fw={600}>
                    Line {i + 1}
                  </Text>
                  <RemoveLine index={i} onClick={() => onRemove(i)} />
                </Group>
                {inputs.description}
                <Group grow wrap="nowrap" gap="xs" align="flex-start">
                  {inputs.quantity}
                  {inputs.unitPrice}
                </Group>
                <Group justify="space-between" wrap="nowrap">
                  {inputs.taxable}
                  <Text size="sm" ta="right">
                    Amount:{' '}
                    <b>
                      <Amount control={control} index={i} />
                    </b>
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
          {fields.map(({ id }, i) => {
            const inputs = lineInputs({ control, index: i });
            return (
              <Table.Tr key={id}>
                <Table.Td>{inputs.description}</Table.Td>
                <Table.Td>{inputs.quantity}</Table.Td>
                <Table.Td>{inputs.unitPrice}</Table.Td>
                <Table.Td>{inputs.taxable}</Table.Td>
                <Table.Td>
                  <Amount control={control} index={i} />
                </Table.Td>
                <Table.Td>
                  <RemoveLine index={i} onClick={() => onRemove(i)} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
