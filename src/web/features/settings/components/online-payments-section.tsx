import { Alert, Button, Group, PasswordInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ONLINE_FOR_CHOICES, onlinePaymentsInput, type OnlinePaymentsView } from '#shared/schemas/payments';
import { SectionCard } from '../../../components/section-card';
import { toast } from '../../../lib/toast';
import { useOnlinePayments, useOnlinePaymentsChanges } from '../api/online-payments';

const LABELS: Record<(typeof ONLINE_FOR_CHOICES)[number], string> = {
  deposits: 'Deposits',
  invoices: 'Invoices',
  both: 'Both',
};

/**
 * Settings → Online payments: the owner's own Stripe account (decision 035). The restricted key is
 * sealed on the server and never shown again; without one, clients pay as before.
 */
export function OnlinePaymentsSection() {
  const view = useOnlinePayments();
  return (
    <SectionCard title="Online payments">
      {view.data ? <OnlinePaymentsForm view={view.data} /> : <Text size="sm">Loading…</Text>}
    </SectionCard>
  );
}

function OnlinePaymentsForm({ view }: { view: OnlinePaymentsView }) {
  const { save, turnOff, test } = useOnlinePaymentsChanges();
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [onlineFor, setOnlineFor] = useState(view.onlineFor);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    const parsed = onlinePaymentsInput.safeParse({ secretKey, webhookSecret, onlineFor });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the key');
    setProblem(null);
    try {
      await save.mutateAsync(parsed.data);
      setSecretKey('');
      setWebhookSecret('');
      toast.success('Online payments saved');
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <Stack gap="sm">
      {view.enabled ? (
        <Alert color="green" title="Online payment is on">
          Clients see a Pay button on {onlineFor === 'both' ? 'deposits and invoices' : onlineFor}. The money goes
          straight to your Stripe account: no fee of ours.
        </Alert>
      ) : view.keyUnreadable ? (
        <Alert color="orange" title="Paste the key again">
          The saved key was sealed by another installation (a restored backup): it cannot be read here.
        </Alert>
      ) : (
        <Alert color="gray" title="Online payment is off">
          Clients pay as the invoice says (check, transfer, card by phone). Paste a restricted key from your Stripe
          dashboard to let them pay by card online.
        </Alert>
      )}
      <PasswordInput
        label={view.keySaved ? 'Replace the restricted key' : 'Restricted key'}
        description="Stripe → Developers → API keys → Create restricted key (Checkout Sessions, Payment Intents and Refunds: write). Stored sealed; never shown again."
        placeholder={view.keySaved ? 'A key is saved' : 'rk_live_…'}
        autoComplete="off"
        value={secretKey}
        onChange={(e) => setSecretKey(e.currentTarget.value)}
      />
      <PasswordInput
        label="Webhook signing secret (optional)"
        description={`When this server can be reached from the internet, add a webhook in Stripe to ${view.webhookUrl} for checkout.session events. Without it, payments are still found: on the client's return and by polling.`}
        placeholder={view.webhookSecretSaved ? 'A secret is saved' : 'whsec_…'}
        autoComplete="off"
        value={webhookSecret}
        onChange={(e) => setWebhookSecret(e.currentTarget.value)}
      />
      <div>
        <Text size="sm" fw={500} id="online-for-label">
          Clients can pay online
        </Text>
        <SegmentedControl
          aria-labelledby="online-for-label"
          value={onlineFor}
          onChange={(value) => setOnlineFor(value as typeof onlineFor)}
          data={ONLINE_FOR_CHOICES.map((value) => ({ value, label: LABELS[value] }))}
        />
      </div>
      {problem ? (
        <Text c="red" size="sm" role="alert">
          {problem}
        </Text>
      ) : null}
      <Group gap="sm">
        <Button onClick={() => void submit()} loading={save.isPending}>
          Save online payments
        </Button>
        <Button
          variant="light"
          disabled={!view.enabled}
          loading={test.isPending}
          onClick={() =>
            test.mutate(undefined, {
              onSuccess: (r) => toast.success(r.message),
              onError: (e) => toast.error(e.message),
            })
          }
        >
          Test the connection
        </Button>
        {view.keySaved ? (
          <Button variant="subtle" color="red" loading={turnOff.isPending} onClick={() => turnOff.mutate()}>
            Turn off and forget the key
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
