import { Checkbox } from '@mantine/core';
import { SectionCard } from '../../../components/section-card';
import { useSettingsForm } from './settings-form';

/**
 * Settings → Webhook addresses (decision 044): whether webhooks may go to this machine or the local
 * network. Off, they may not: an Owner's account cannot make the server call its own private services.
 */
export function WebhookAddressesSection() {
  const { register } = useSettingsForm();
  return (
    <SectionCard title="Webhook addresses">
      <Checkbox
        label="Let webhooks reach this machine and the local network"
        description="For a receiver in the office (a NAS, a local server). Leave it off unless you run one: then no webhook can reach this machine's own services."
        {...register('webhooksAllowPrivate')}
      />
    </SectionCard>
  );
}
