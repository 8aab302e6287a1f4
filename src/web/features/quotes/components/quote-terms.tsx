import { Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useRef } from 'react';
import { Controller } from 'react-hook-form';
import { todayIn } from '#shared/dates';
import { depositParts, formatMoney, quoteBase, type PricedQuote } from '#shared/money';
import type { DepositInput } from '#shared/schemas/quotes';
import type { QuoteFormControl } from '../lib/quote-form';

type DepositKind = 'none' | DepositInput['kind'];

interface DepositFieldProps {
  control: QuoteFormControl;
  priced: PricedQuote;
  disabled: boolean;
}

/** No deposit, a percent of the total or a fixed amount, and what the client pays on accepting. */
function DepositField({ control, priced, disabled }: DepositFieldProps) {
  // The number typed stays when the kind changes, even through "No deposit".
  const lastValue = useRef<number | undefined>(undefined);
  return (
    <Controller
      control={control}
      name="deposit"
      render={({ field, fieldState }) => {
        const deposit = field.value ?? null;
        const kind: DepositKind = deposit?.kind ?? 'none';
        const value = deposit?.value as number | undefined;
        const error =
          fieldState.error?.message ??
          (fieldState.error as { value?: { message?: string } } | undefined)?.value?.message;
        return (
          <Group align="flex-end" gap="sm">
            <Select
              label="Deposit on acceptance"
              data={[
                { value: 'none', label: 'No deposit' },
                { value: 'percent', label: 'Percent of the total' },
                { value: 'amount', label: 'Fixed amount' },
              ]}
              value={kind}
              onChange={(v) => {
                const next = (v ?? 'none') as DepositKind;
                if (value !== undefined) lastValue.current = value;
                field.onChange(next === 'none' ? null : { kind: next, value: value ?? lastValue.current });
              }}
              allowDeselect={false}
              disabled={disabled}
              maw={220}
            />
            {deposit === null ? null : (
              <NumberInput
                label={kind === 'percent' ? 'Deposit (%)' : 'Deposit ($)'}
                value={value ?? ''}
                onChange={(v) => field.onChange({ kind: deposit.kind, value: typeof v === 'number' ? v : undefined })}
                onBlur={field.onBlur}
                min={kind === 'percent' ? 1 : 0.01}
                max={kind === 'percent' ? 100 : undefined}
                decimalScale={kind === 'percent' ? 0 : 2}
                prefix={kind === 'amount' ? '$' : undefined}
                suffix={kind === 'percent' ? '%' : undefined}
                error={error}
                disabled={disabled}
                maw={160}
              />
            )}
            {deposit && Number.isFinite(value) ? (
              <Text size="sm" c="dimmed" pb={8}>
                {formatMoney(depositParts(quoteBase(priced), priced.taxRateBasisPoints, deposit).dueCents)} due when the
                client accepts
              </Text>
            ) : null}
          </Group>
        );
      }}
    />
  );
}

interface QuoteTermsProps extends DepositFieldProps {
  timeZone: string;
}

type TextFieldName = 'clientName' | 'projectName' | 'validUntil' | 'poNumber' | 'notes' | 'internalNotes';

/** One of the quote's text fields, bound to the form: a line of text, or several (`multiline`). */
function QuoteText({
  control,
  name,
  disabled,
  multiline = false,
  ...props
}: {
  control: QuoteFormControl;
  name: TextFieldName;
  disabled: boolean;
  multiline?: boolean;
  label: string;
  description?: string;
  withAsterisk?: boolean;
  type?: 'date';
  min?: string;
  maxLength?: number;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const bound = {
          ...props,
          ...field,
          value: field.value ?? '',
          error: fieldState.error?.message,
          disabled,
        };
        return multiline ? <Textarea rows={3} {...bound} /> : <TextInput {...bound} />;
      }}
    />
  );
}

/** Who and what the quote is for, until when it stands, and the deposit it asks. */
export function QuoteTerms({ control, priced, disabled, timeZone }: QuoteTermsProps) {
  return (
    <Stack>
      {/* Side by side from 576 px; on a phone one under the other, so a name is not cut. */}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <QuoteText control={control} name="clientName" label="Client name" withAsterisk disabled={disabled} />
        <QuoteText control={control} name="projectName" label="Project name" withAsterisk disabled={disabled} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <QuoteText
          control={control}
          name="validUntil"
          type="date"
          label="Valid until"
          description="The last day the client can accept"
          withAsterisk
          min={todayIn(timeZone)}
          disabled={disabled}
        />
        <QuoteText
          control={control}
          name="poNumber"
          label="PO number"
          description="The client's purchase order, if any"
          maxLength={40}
          disabled={disabled}
        />
      </SimpleGrid>
      <DepositField control={control} priced={priced} disabled={disabled} />
    </Stack>
  );
}

/** The notes the client reads on the quote, and the office's own (never shown to the client nor kept in a template). */
export function QuoteNotes({ control, disabled }: { control: QuoteFormControl; disabled: boolean }) {
  return (
    <Stack gap="sm">
      <QuoteText
        control={control}
        name="notes"
        multiline
        label="Notes for the client"
        description="Printed on the quote, its e-mail and PDF"
        disabled={disabled}
      />
      <QuoteText
        control={control}
        name="internalNotes"
        multiline
        label="Internal notes"
        description="For the office only: never shown to the client, never saved in a template"
        disabled={disabled}
      />
    </Stack>
  );
}
