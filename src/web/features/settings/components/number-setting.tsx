import { NumberInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { useSettingsForm } from './settings-form';

/** A required number setting (a rate, a count of days), its field wired to the form; empty reads as NaN so the schema names it. */
export function NumberSetting({
  name,
  ...input
}: {
  name: 'taxRatePercent' | 'quoteValidityDays' | 'backupsToKeep';
  label: string;
  description: string;
  min: number;
  max: number;
  decimalScale?: number;
  step?: number;
}) {
  const { control, formState } = useSettingsForm();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <NumberInput
          {...input}
          required
          allowDecimal={input.decimalScale !== undefined}
          value={field.value}
          onChange={(v) => field.onChange(typeof v === 'number' ? v : Number.NaN)}
          onBlur={field.onBlur}
          ref={field.ref}
          error={formState.errors[name]?.message}
        />
      )}
    />
  );
}
