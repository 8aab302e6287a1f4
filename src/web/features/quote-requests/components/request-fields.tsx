import { Box, TextInput } from '@mantine/core';
import { PlainTextarea } from '../../../components/plain-textarea';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { LATEST_DATE } from '#shared/constants';
import type { QuoteRequestForm } from '#shared/schemas/quote-request';
import layout from '../../../components/layout.module.css';

/** The request form with nothing typed yet. */
export const emptyRequestForm: QuoteRequestForm = {
  firstName: '',
  lastName: '',
  phone: '',
  email: '',
  street: '',
  city: '',
  state: '',
  zip: '',
  specifications: '',
  preferredEndDate: '',
};

interface RequestFieldsProps {
  /** A field's registration, its error and whether it is locked. */
  field: (name: keyof QuoteRequestForm) => UseFormRegisterReturn & { error: string | undefined; disabled: boolean };
  /** The earliest Preferred End Date (today where the business is). */
  today: string;
  /** The office's phone-in: a client without an e-mail is found by phone and sent nothing. */
  emailOptional?: boolean;
}

/** The request's fields: contact, address, specifications and date. The public form and the office's phone entry share them. */
export function RequestFields({ field, today, emailOptional = false }: RequestFieldsProps) {
  return (
    <>
      <div className={`${layout.grid} ${layout.cols2}`}>
        <TextInput label="First Name" type="text" withAsterisk autoComplete="given-name" {...field('firstName')} />
        <TextInput label="Last Name" type="text" withAsterisk autoComplete="family-name" {...field('lastName')} />
        <TextInput label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
        <TextInput
          label="Email"
          withAsterisk={!emailOptional}
          description={emailOptional ? 'Optional with a phone: without it nothing is e-mailed' : undefined}
          type="email"
          autoComplete="email"
          {...field('email')}
        />
        <TextInput label="Street" type="text" withAsterisk autoComplete="address-line1" {...field('street')} />
        <TextInput label="City" type="text" withAsterisk autoComplete="address-level2" {...field('city')} />
        <TextInput label="State" type="text" withAsterisk autoComplete="address-level1" {...field('state')} />
        <TextInput
          label="Zip"
          type="text"
          withAsterisk
          autoComplete="postal-code"
          inputMode="numeric"
          {...field('zip')}
        />
      </div>
      <PlainTextarea
        mt="md"
        label="Specifications"
        withAsterisk
        description="What needs doing? Sizes, materials and anything we should know."
        rows={5}
        {...field('specifications')}
      />
      <Box mt="md" className={`${layout.grid} ${layout.cols2}`}>
        <TextInput
          label="Preferred End Date"
          type="date"
          min={today}
          max={LATEST_DATE}
          {...field('preferredEndDate')}
        />
      </Box>
    </>
  );
}
