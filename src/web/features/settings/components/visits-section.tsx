import { Select, SimpleGrid, Text } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { ARRIVAL_WINDOWS, formatArrival } from '#shared/arrival-window';
import { addDays, todayIn, zonedTimeToUtc } from '#shared/dates';
import { isTimeZone } from '#shared/schemas/settings';
import { SectionCard } from '../../../components/section-card';
import { useSettingsForm } from './settings-form';

const label = (minutes: number) =>
  minutes === 0 ? "The visit's own start and end" : `${minutes / 60} hour${minutes === 60 ? '' : 's'} from its start`;

const windows = ARRIVAL_WINDOWS.map((m) => ({ value: String(m), label: label(m) }));

/** An example visit, tomorrow 9:00–12:00 on the business's clock, as the client would read it. */
function example(minutes: number, timeZone: string) {
  const day = addDays(todayIn(timeZone), 1);
  const visit = { startsAt: zonedTimeToUtc(day, '09:00', timeZone), endsAt: zonedTimeToUtc(day, '12:00', timeZone) };
  return formatArrival(visit, minutes, timeZone);
}

/** Settings → Visits: the arrival window clients are given for a visit, in every message and on their page. */
export function VisitsSection() {
  const {
    control,
    watch,
    formState: { errors },
  } = useSettingsForm();
  const minutes = Number(watch('arrivalWindowMinutes') ?? 120);
  // The zone as the form has it: the example follows a zone changed before saving.
  const timeZone = watch('timeZone');
  return (
    <SectionCard title="Visits">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name="arrivalWindowMinutes"
          render={({ field }) => (
            <Select
              label="Arrival window clients see"
              description="In the visit's e-mails and texts and on the client's page; your calendar keeps the visit's times"
              data={windows}
              value={String(field.value ?? 120)}
              onChange={(v) => field.onChange(Number(v ?? 120))}
              onBlur={field.onBlur}
              ref={field.ref}
              allowDeselect={false}
              error={errors.arrivalWindowMinutes?.message}
            />
          )}
        />
        <Text size="sm" c="dimmed" data-testid="arrival-example">
          {isTimeZone(timeZone)
            ? `A visit tomorrow at 9:00 AM – 12:00 PM reads: “${example(minutes, timeZone)}”`
            : null}
        </Text>
      </SimpleGrid>
    </SectionCard>
  );
}
