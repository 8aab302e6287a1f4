import { Checkbox, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { SectionCard } from '../../../components/section-card';
import { useSettingsForm } from './settings-form';

/** A few lines of payment details (an address, transfer details), as the owner writes them. */
function PayDetails({
  name,
  ...field
}: {
  name: 'checkAddress' | 'bankTransfer';
  label: string;
  description: string;
  maxLength: number;
}) {
  const { register, formState } = useSettingsForm();
  return (
    <Textarea
      {...field}
      autosize
      minRows={2}
      {...register(`howClientsPay.${name}`)}
      error={formState.errors.howClientsPay?.[name]?.message}
    />
  );
}

/** Settings → "How clients pay": what every invoice and the deposit request print under "How to pay". */
export function HowClientsPaySection() {
  const form = useSettingsForm();
  const errors = form.formState.errors.howClientsPay;
  const cardByPhone = form.watch('howClientsPay.cardByPhone');
  return (
    <SectionCard title="How clients pay">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Printed under “How to pay” on every invoice e-mail, page and PDF, and on the deposit request. Fill in the ways
          you take; with none, they ask the client to call {form.watch('businessPhone') || 'the business phone'}.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Make checks payable to"
            description="With only an address below: the business name"
            maxLength={100}
            {...form.register('howClientsPay.checkPayee')}
            error={errors?.checkPayee?.message}
          />
          <PayDetails
            name="checkAddress"
            label="Mailing address for checks"
            description="Street, city, state and ZIP, on as many lines as needed"
            maxLength={300}
          />
        </SimpleGrid>
        <PayDetails
          name="bankTransfer"
          label="Zelle or bank transfer details"
          description="e.g. Zelle to pay@yourbusiness.com, or the bank's name with the account and routing numbers"
          maxLength={500}
        />
        <Checkbox label="Clients may pay by card over the phone" {...form.register('howClientsPay.cardByPhone')} />
        {cardByPhone ? (
          <TextInput
            label="Phone for card payments"
            description="Leave empty to use the business phone"
            type="tel"
            maxLength={40}
            {...form.register('howClientsPay.cardPhone')}
            error={errors?.cardPhone?.message}
          />
        ) : null}
      </Stack>
    </SectionCard>
  );
}
