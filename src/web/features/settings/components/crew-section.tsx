import { ActionIcon, Button, Checkbox, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useFieldArray } from 'react-hook-form';
import { SectionCard } from '../../../components/section-card';
import { useSettingsForm } from './settings-form';

/** A price in dollars: what is typed stays as typed ("12."), the form gets the number. */
function PriceInput({
  label,
  value,
  onChange,
  onBlur,
  error,
}: {
  label: string;
  value: number | undefined;
  onChange: (value: number) => void;
  onBlur: () => void;
  error: string | undefined;
}) {
  const [text, setText] = useState<string | number>(value === undefined || Number.isNaN(value) ? '' : value);
  return (
    <NumberInput
      aria-label={label}
      prefix="$"
      min={0}
      decimalScale={2}
      w={130}
      value={text}
      onChange={(v) => {
        setText(v);
        onChange(typeof v === 'number' ? v : v.trim() === '' ? Number.NaN : Number(v));
      }}
      onBlur={onBlur}
      error={error}
    />
  );
}

/** Settings → Crew: whether the crew sees prices, and the materials price list they pick from. */
export function CrewSection() {
  const { register, control, formState } = useSettingsForm();
  const { errors } = formState;
  const priceList = useFieldArray({ control, name: 'materialPriceList' });
  return (
    <SectionCard title="Crew">
      <Stack gap="sm">
        <Checkbox
          label="The crew sees prices"
          description="Prices of the materials list and of what they add on a job; otherwise the office prices them"
          {...register('crewSeesPrices')}
        />
        <Text fw={600} size="sm" id="price-list-label">
          Materials price list
        </Text>
        <Text size="xs" c="dimmed" mt={-8}>
          What the crew picks from when they record materials used beyond the quote
        </Text>
        {priceList.fields.map((field, index) => (
          // On a phone the name takes its own row; price, tax and remove follow on the next.
          <Group key={field.id} gap="xs" align="flex-start" wrap="wrap">
            <TextInput
              aria-label={`Material ${index + 1} name`}
              placeholder="e.g. Gate hinge"
              style={{ flex: '1 1 14rem' }}
              maxLength={200}
              {...register(`materialPriceList.${index}.name`)}
              error={errors.materialPriceList?.[index]?.name?.message}
            />
            <Controller
              control={control}
              name={`materialPriceList.${index}.unitPrice`}
              render={({ field: price }) => (
                <PriceInput
                  label={`Material ${index + 1} price`}
                  value={price.value}
                  onChange={price.onChange}
                  onBlur={price.onBlur}
                  error={errors.materialPriceList?.[index]?.unitPrice?.message}
                />
              )}
            />
            <Checkbox
              mt={8}
              label="Taxed"
              aria-label={`Material ${index + 1} taxed`}
              {...register(`materialPriceList.${index}.taxable`)}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove material ${index + 1}`}
              onClick={() => priceList.remove(index)}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Group>
        ))}
        {errors.materialPriceList?.message || errors.materialPriceList?.root?.message ? (
          <Text size="sm" c="red">
            {errors.materialPriceList.message ?? errors.materialPriceList.root?.message}
          </Text>
        ) : null}
        <Group>
          <Button variant="light" size="xs" onClick={() => priceList.append({ name: '', unitPrice: 0, taxable: true })}>
            Add a material
          </Button>
        </Group>
      </Stack>
    </SectionCard>
  );
}
