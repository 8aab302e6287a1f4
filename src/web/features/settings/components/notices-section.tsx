import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { SectionCard } from '../../../components/section-card';
import { useSettingsForm } from './settings-form';

/** The zones the browser knows, with the saved one first should it not know that one. */
function timeZones(current: string): string[] {
  const known = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return known.includes(current) ? known : [current, ...known];
}

/** Settings → Notices and time: where the owner's notices go, and the business's time zone. */
export function NoticesSection({ savedTimeZone }: { savedTimeZone: string }) {
  const { register, control, formState } = useSettingsForm();
  const { errors } = formState;
  const zones = useMemo(() => timeZones(savedTimeZone), [savedTimeZone]);
  return (
    <SectionCard title="Notices and time">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Send owner notices to"
          description="New requests, contact messages and clients' answers"
          type="email"
          required
          autoComplete="email"
          {...register('ownerEmail')}
          error={errors.ownerEmail?.message}
        />
        <Controller
          control={control}
          name="timeZone"
          render={({ field }) => (
            <Select
              label="Time zone"
              description="Dates on quotes are printed in it"
              required
              searchable
              data={zones}
              value={field.value}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              ref={field.ref}
              allowDeselect={false}
              nothingFoundMessage="No such time zone"
              error={errors.timeZone?.message}
            />
          )}
        />
      </SimpleGrid>
    </SectionCard>
  );
}
