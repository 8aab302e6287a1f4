import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Box,
  Checkbox,
  Button,
  FileButton,
  Group,
  Image,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, type Control, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '../../../../shared/constants';
import { messages } from '../../../../shared/messages';
import { settingsInput, type SettingsInput, type SettingsView } from '../../../../shared/schemas/settings';
import { PageHeader } from '../../../components/page-header';
import { SectionCard } from '../../../components/section-card';
import { hasErrorCode } from '../../../lib/api-client';
import { readAsDataUrl } from '../../../lib/files';
import { toast } from '../../../lib/toast';
import { useRemoveLogo, useSaveSettings, useSetLogo, useSettings } from '../api/settings';

const LOGO_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

function timeZones(current: string): string[] {
  const known = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return known.includes(current) ? known : [current, ...known];
}

const valuesOf = ({ logoUrl: _logo, updatedAt: _at, ...values }: SettingsView): SettingsInput => values;

/** "3, 7": days after which a reminder goes (empty: none). */
function ReminderDaysInput({
  label,
  description,
  value,
  onChange,
  onBlur,
  error,
}: {
  label: string;
  description: string;
  value: number[];
  onChange: (days: number[]) => void;
  onBlur: () => void;
  error: string | undefined;
}) {
  const [text, setText] = useState(value.join(', '));
  return (
    <TextInput
      label={label}
      description={description}
      inputMode="numeric"
      value={text}
      onChange={(e) => {
        const typed = e.currentTarget.value;
        setText(typed);
        onChange(
          typed
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((d) => (/^\d+$/.test(d) ? Number(d) : Number.NaN)),
        );
      }}
      onBlur={onBlur}
      error={error}
    />
  );
}

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

/** The owner's Settings: the business's details, where it works, how quotes are priced and sent. */
export default function SettingsPage() {
  const settings = useSettings();
  useEffect(() => {
    if (settings.isError) toast.error(messages.settingsLoadError);
  }, [settings.isError]);

  return (
    <>
      <PageHeader title="Settings" />
      {settings.data ? (
        <Stack gap="md" maw={960}>
          <SettingsForm settings={settings.data} />
          <LogoCard logoUrl={settings.data.logoUrl} businessName={settings.data.businessName} />
        </Stack>
      ) : settings.isError ? (
        <Alert color="red" title="Settings could not be loaded">
          <Group justify="space-between">
            <Text size="sm">Check the connection and try again.</Text>
            <Button size="xs" variant="light" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : (
        <Group justify="center" py="xl">
          <Loader aria-label="Loading settings" />
        </Group>
      )}
    </>
  );
}

type SettingsControl = Control<z.input<typeof settingsInput>, unknown, SettingsInput>;

/** A required number setting (a rate, a count of days), its field wired to the form; empty reads as NaN so the schema names it. */
function NumberSetting({
  control,
  name,
  error,
  ...input
}: {
  control: SettingsControl;
  name: 'taxRatePercent' | 'quoteValidityDays' | 'backupsToKeep';
  error: string | undefined;
  label: string;
  description: string;
  min: number;
  max: number;
  decimalScale?: number;
  step?: number;
}) {
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
          error={error}
        />
      )}
    />
  );
}

function SettingsForm({ settings }: { settings: SettingsView }) {
  const save = useSaveSettings();
  const form = useForm<z.input<typeof settingsInput>, unknown, SettingsInput>({
    resolver: zodResolver(settingsInput),
    defaultValues: valuesOf(settings),
  });
  const { errors, isDirty } = form.formState;
  const priceList = useFieldArray({ control: form.control, name: 'materialPriceList' });
  const zones = useMemo(() => timeZones(settings.timeZone), [settings.timeZone]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      form.reset(valuesOf(saved));
      toast.success(messages.settingsSaved);
    } catch (error) {
      toast.error(hasErrorCode(error, 'VALIDATION_FAILED') ? error.message : messages.settingsSaveError);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Settings">
      <Stack gap="md">
        <SectionCard title="Business">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Business name"
              required
              autoComplete="organization"
              {...form.register('businessName')}
              error={errors.businessName?.message}
            />
            <TextInput
              label="Phone"
              type="tel"
              required
              autoComplete="tel"
              {...form.register('businessPhone')}
              error={errors.businessPhone?.message}
            />
            <TextInput
              label="E-mail"
              type="email"
              required
              autoComplete="email"
              {...form.register('businessEmail')}
              error={errors.businessEmail?.message}
            />
            <TextInput
              label="Address"
              description="Shown to search engines; leave empty to keep it private"
              {...form.register('businessAddress')}
              error={errors.businessAddress?.message}
            />
          </SimpleGrid>
        </SectionCard>

        <SectionCard title="Service area">
          <Stack>
            <TextInput
              label="Headline"
              description='The home page reads "Proudly Serving …" followed by this'
              required
              {...form.register('serviceAreaHeadline')}
              error={errors.serviceAreaHeadline?.message}
            />
            <Controller
              control={form.control}
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
                    (Array.isArray(errors.serviceArea)
                      ? errors.serviceArea.find((e) => e?.message)?.message
                      : undefined)
                  }
                />
              )}
            />
          </Stack>
        </SectionCard>

        <SectionCard title="Quotes">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberSetting
              control={form.control}
              name="taxRatePercent"
              label="Sales tax rate (%)"
              description="New quotes are priced at it; sent quotes keep their own rate"
              min={0}
              max={50}
              decimalScale={2}
              step={0.25}
              error={errors.taxRatePercent?.message}
            />
            <NumberSetting
              control={form.control}
              name="quoteValidityDays"
              label="Quotes valid for (days)"
              description="A new quote's valid-until date, from the day it is sent"
              min={1}
              max={365}
              error={errors.quoteValidityDays?.message}
            />
            <Stack gap="xs" role="group" aria-label="Sales tax on new lines">
              <Checkbox
                label="Tax materials"
                description="A new material line is taxed unless switched off on the line"
                {...form.register('materialsTaxable')}
              />
              <Checkbox
                label="Tax labor"
                description="Repair labor is not taxed in California: leave off unless your work is taxed"
                {...form.register('laborTaxable')}
              />
            </Stack>
            <Controller
              control={form.control}
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

        <SectionCard title="Notices and time">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Send owner notices to"
              description="New requests, contact messages and clients' answers"
              type="email"
              required
              autoComplete="email"
              {...form.register('ownerEmail')}
              error={errors.ownerEmail?.message}
            />
            <Controller
              control={form.control}
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

        <SectionCard title="Invoices">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
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

        <HowClientsPaySection form={form} />

        <SectionCard title="Crew">
          <Stack gap="sm">
            <Checkbox
              label="The crew sees prices"
              description="Prices of the materials list and of what they add on a job; otherwise the office prices them"
              {...form.register('crewSeesPrices')}
            />
            <Text fw={600} size="sm" id="price-list-label">
              Materials price list
            </Text>
            <Text size="xs" c="dimmed" mt={-8}>
              What the crew picks from when they record materials used beyond the quote
            </Text>
            {priceList.fields.map((field, index) => (
              <Group key={field.id} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput
                  aria-label={`Material ${index + 1} name`}
                  placeholder="e.g. Gate hinge"
                  style={{ flex: 1 }}
                  maxLength={200}
                  {...form.register(`materialPriceList.${index}.name`)}
                  error={errors.materialPriceList?.[index]?.name?.message}
                />
                <Controller
                  control={form.control}
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
                  {...form.register(`materialPriceList.${index}.taxable`)}
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
              <Button
                variant="light"
                size="xs"
                onClick={() => priceList.append({ name: '', unitPrice: 0, taxable: true })}
              >
                Add a material
              </Button>
            </Group>
          </Stack>
        </SectionCard>

        <SectionCard title="Backups">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberSetting
              control={form.control}
              name="backupsToKeep"
              label="Daily backups to keep"
              description="The embedded database is backed up every day into DATA_DIR/backups"
              min={1}
              max={365}
              error={errors.backupsToKeep?.message}
            />
          </SimpleGrid>
        </SectionCard>

        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            disabled={!isDirty || save.isPending}
            onClick={() => form.reset(valuesOf(settings))}
          >
            Discard changes
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save Settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type SettingsFormApi = UseFormReturn<z.input<typeof settingsInput>, unknown, SettingsInput>;

/** A few lines of payment details (an address, transfer details), as the owner writes them. */
function PayDetails({
  form,
  name,
  ...field
}: {
  form: SettingsFormApi;
  name: 'checkAddress' | 'bankTransfer';
  label: string;
  description: string;
  maxLength: number;
}) {
  return (
    <Textarea
      {...field}
      autosize
      minRows={2}
      {...form.register(`howClientsPay.${name}`)}
      error={form.formState.errors.howClientsPay?.[name]?.message}
    />
  );
}

/** Settings → "How clients pay": what every invoice and the deposit request print under "How to pay". */
function HowClientsPaySection({ form }: { form: SettingsFormApi }) {
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
            form={form}
            name="checkAddress"
            label="Mailing address for checks"
            description="Street, city, state and ZIP, on as many lines as needed"
            maxLength={300}
          />
        </SimpleGrid>
        <PayDetails
          form={form}
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

function LogoCard({ logoUrl, businessName }: { logoUrl: string | null; businessName: string }) {
  const setLogo = useSetLogo();
  const removeLogo = useRemoveLogo();
  const busy = setLogo.isPending || removeLogo.isPending;

  const upload = async (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      toast.error(messages.filesTooLarge);
      return;
    }
    try {
      await setLogo.mutateAsync(await readAsDataUrl(file));
      toast.success(messages.logoSaved);
    } catch (error) {
      toast.error(
        hasErrorCode(error, 'INVALID_IMAGE', 'IMAGE_TOO_LARGE', 'FILES_TOO_LARGE') ? error.message : messages.logoError,
      );
    }
  };
  const remove = async () => {
    try {
      await removeLogo.mutateAsync();
      toast.success(messages.logoRemoved);
    } catch {
      toast.error(messages.logoError);
    }
  };

  return (
    <SectionCard title="Logo">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Shown in the site's header and on quote PDFs. A JPEG, PNG, WebP or GIF picture up to 3 MB; a wide logo on a
          transparent background looks best.
        </Text>
        <Box
          p="md"
          style={{ border: '1px dashed var(--mantine-color-gray-4)', borderRadius: 12, minHeight: 96 }}
          aria-live="polite"
        >
          {logoUrl ? (
            <Image src={logoUrl} alt={`${businessName} logo`} h={64} w="auto" fit="contain" maw="100%" />
          ) : (
            <Text size="sm" c="dimmed">
              No logo yet: the site shows the business name with the standard mark.
            </Text>
          )}
        </Box>
        <Group gap="sm">
          <FileButton onChange={(file) => void upload(file)} accept={LOGO_TYPES}>
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<IconPhotoUp size={18} aria-hidden />}
                loading={setLogo.isPending}
                disabled={busy}
              >
                {logoUrl ? 'Replace logo' : 'Upload logo'}
              </Button>
            )}
          </FileButton>
          {logoUrl ? (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={18} aria-hidden />}
              onClick={() => void remove()}
              loading={removeLogo.isPending}
              disabled={busy}
            >
              Remove logo
            </Button>
          ) : null}
        </Group>
      </Stack>
    </SectionCard>
  );
}
