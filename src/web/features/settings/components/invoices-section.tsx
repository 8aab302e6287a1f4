import { SimpleGrid } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { SectionCard } from '../../../components/section-card';
import { ReminderDaysInput } from './reminder-days-input';
import { useSettingsForm } from './settings-form';

/** Settings → Invoices: when unpaid invoices are reminded. */
export function InvoicesSection() {
  const { control, formState } = useSettingsForm();
  const { errors } = formState;
  return (
    <SectionCard title="Invoices">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name="invoiceReminderDays"
          render={({ field }) => (
            <ReminderDaysInput
              label="Remind unpaid invoices after the due date (days)"
              description="At most three, e.g. 7, 14; leave empty for no reminders"
              value={field.value ?? []}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.invoiceReminderDays?.message ?? errors.invoiceReminderDays?.[0]?.message}
            />
          )}
        />
      </SimpleGrid>
    </SectionCard>
  );
}
