import { SimpleGrid, TextInput } from '@mantine/core';
import { SectionCard } from '../../../components/section-card';
import { useSettingsForm } from './settings-form';

/** Settings → Business: the name, phone, e-mail and address the site and the documents show. */
export function BusinessSection() {
  const { register, formState } = useSettingsForm();
  const { errors } = formState;
  return (
    <SectionCard title="Business">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Business name"
          required
          autoComplete="organization"
          {...register('businessName')}
          error={errors.businessName?.message}
        />
        <TextInput
          label="Phone"
          type="tel"
          required
          autoComplete="tel"
          {...register('businessPhone')}
          error={errors.businessPhone?.message}
        />
        <TextInput
          label="E-mail"
          type="email"
          required
          autoComplete="email"
          {...register('businessEmail')}
          error={errors.businessEmail?.message}
        />
        <TextInput
          label="Address"
          description="Printed on quotes, invoices and job reports, and shown to search engines; leave empty to keep it private"
          {...register('businessAddress')}
          error={errors.businessAddress?.message}
        />
        <TextInput
          label="License number"
          description="Optional: printed on quotes, invoices and job reports (e.g. CSLB 1045872)"
          maxLength={40}
          {...register('licenseNumber')}
          error={errors.licenseNumber?.message}
        />
      </SimpleGrid>
    </SectionCard>
  );
}
