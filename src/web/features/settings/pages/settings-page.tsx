import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { messages } from '#shared/messages';
import { settingsInput, type SettingsInput, type SettingsView } from '#shared/schemas/settings';
import { PageHeader } from '../../../components/page-header';
import { hasErrorCode } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useSaveSettings, useSettings } from '../api/settings';
import { BackupsSection } from '../components/backups-section';
import { BookingSection } from '../components/booking-section';
import { BusinessSection } from '../components/business-section';
import { CrewSection } from '../components/crew-section';
import { HowClientsPaySection } from '../components/how-clients-pay-section';
import { InvoicesSection } from '../components/invoices-section';
import { LogoSection } from '../components/logo-section';
import { NoticesSection } from '../components/notices-section';
import { OnlinePaymentsSection } from '../components/online-payments-section';
import { QuotesSection } from '../components/quotes-section';
import { TextsSection } from '../components/texts-section';
import { VisitsSection } from '../components/visits-section';
import { ServiceAreaSection } from '../components/service-area-section';
import { SignInSection } from '../components/sign-in-section';
import { WebhookAddressesSection } from '../components/webhook-addresses-section';
import { WebhooksSection } from '../components/webhooks-section';
import { valuesOf, type SettingsFormValues } from '../components/settings-form';

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
          <LogoSection logoUrl={settings.data.logoUrl} businessName={settings.data.businessName} />
          <OnlinePaymentsSection />
          <TextsSection />
          <BookingSection />
          <WebhooksSection />
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

/** One form for every section but the logo: one Save, one Discard. */
function SettingsForm({ settings }: { settings: SettingsView }) {
  const save = useSaveSettings();
  const form = useForm<SettingsFormValues, unknown, SettingsInput>({
    resolver: zodResolver(settingsInput),
    defaultValues: valuesOf(settings),
  });
  const { isDirty } = form.formState;

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
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate aria-label="Settings">
        <Stack gap="md">
          <BusinessSection />
          <ServiceAreaSection />
          <QuotesSection />
          <NoticesSection savedTimeZone={settings.timeZone} />
          <InvoicesSection />
          <HowClientsPaySection />
          <VisitsSection />
          <CrewSection />
          <SignInSection savedRequired={settings.requireTwoStep} />
          <WebhookAddressesSection />
          <BackupsSection />
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
    </FormProvider>
  );
}
