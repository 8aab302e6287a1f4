import { Checkbox, SimpleGrid, Stack } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { SectionCard } from '../../../components/section-card';
import { NumberSetting } from './number-setting';
import { ReminderDaysInput } from './reminder-days-input';
import { useSettingsForm } from './settings-form';

/** Settings → Quotes: the tax rate and what it applies to, how long a quote holds, its reminders. */
export function QuotesSection() {
  const { register, control, formState } = useSettingsForm();
  const { errors } = formState;
  return (
    <SectionCard title="Quotes">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberSetting
          name="taxRatePercent"
          label="Sales tax rate (%)"
          description="New quotes are priced at it; sent quotes keep their own rate"
          min={0}
          max={50}
          decimalScale={2}
          step={0.25}
        />
        <NumberSetting
          name="quoteValidityDays"
          label="Quotes valid for (days)"
          description="A new quote's valid-until date, from the day it is sent"
          min={1}
          max={365}
        />
        <Stack gap="xs" role="group" aria-label="Sales tax on new lines">
          <Checkbox
            label="Tax materials"
            description="A new material line is taxed unless switched off on the line"
            {...register('materialsTaxable')}
          />
          <Checkbox
            label="Tax labor"
            description="Repair labor is not taxed in California: leave off unless your work is taxed"
            {...register('laborTaxable')}
          />
        </Stack>
        <Controller
          control={control}
          name="quoteReminderDays"
          render={({ field }) => (
            <ReminderDaysInput
              label="Remind unanswered quotes after (days)"
              description="At most two, e.g. 3, 7; leave empty for no reminders"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.quoteReminderDays?.message ?? errors.quoteReminderDays?.[0]?.message}
            />
          )}
        />
      </SimpleGrid>
    </SectionCard>
  );
}
