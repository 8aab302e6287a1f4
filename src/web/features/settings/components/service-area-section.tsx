import { Stack, TagsInput, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { SectionCard } from '../../../components/section-card';
import { useSettingsForm } from './settings-form';

/** Settings → Service area: the home page's headline and the places the business works in. */
export function ServiceAreaSection() {
  const { register, control, formState } = useSettingsForm();
  const { errors } = formState;
  return (
    <SectionCard title="Service area">
      <Stack>
        <TextInput
          label="Headline"
          description='The home page reads "Proudly Serving …" followed by this'
          required
          {...register('serviceAreaHeadline')}
          error={errors.serviceAreaHeadline?.message}
        />
        <Controller
          control={control}
          name="serviceArea"
          render={({ field }) => (
            <TagsInput
              label="Cities, counties and ZIP codes"
              description="Press Enter after each place"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              clearable
              error={
                errors.serviceArea?.message ??
                (Array.isArray(errors.serviceArea) ? errors.serviceArea.find((e) => e?.message)?.message : undefined)
              }
            />
          )}
        />
      </Stack>
    </SectionCard>
  );
}
