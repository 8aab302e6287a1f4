import { Alert, Anchor, Button, Group, NumberInput, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { formatMobile } from '#shared/phone';
import { textSettingsInput, type TextSettingsView } from '#shared/schemas/texts';
import { SectionCard } from '../../../components/section-card';
import { toast } from '../../../lib/toast';
import { useTextSettings, useTextSettingsChanges } from '../api/texts';

/**
 * Settings → Text messages: the owner's own Twilio account (decision 045). The auth token is sealed on
 * the server and never shown again; without an account, clients are e-mailed only.
 */
export function TextsSection() {
  const view = useTextSettings();
  return (
    <SectionCard title="Text messages" region>
      {view.data ? <TextsForm view={view.data} /> : <Text size="sm">Loading…</Text>}
    </SectionCard>
  );
}

function TextsForm({ view }: { view: TextSettingsView }) {
  const { save, turnOff, test } = useTextSettingsChanges();
  const [accountSid, setAccountSid] = useState(view.accountSid);
  const [authToken, setAuthToken] = useState('');
  const [fromNumber, setFromNumber] = useState(formatMobile(view.fromNumber));
  const [messagingServiceSid, setMessagingServiceSid] = useState(view.messagingServiceSid);
  const [dailyLimit, setDailyLimit] = useState<number | string>(view.dailyLimit);
  const [testTo, setTestTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    const parsed = textSettingsInput.safeParse({ accountSid, authToken, fromNumber, messagingServiceSid, dailyLimit });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the account');
    setProblem(null);
    try {
      const saved = await save.mutateAsync(parsed.data);
      setAuthToken('');
      setFromNumber(formatMobile(saved.fromNumber));
      toast.success('Text messages saved');
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <Stack gap="sm">
      {view.enabled ? (
        <Alert
          color="green"
          title={
            <Text span inherit c="var(--mantine-color-text)">
              Texts are on
            </Text>
          }
        >
          Clients who take texts hear about their visits by text, and the crew can tell them they are on the way. Each
          client chooses e-mail, text or both on their client page.
        </Alert>
      ) : view.tokenUnreadable ? (
        <Alert
          color="orange"
          title={
            <Text span inherit c="var(--mantine-color-text)">
              Paste the auth token again
            </Text>
          }
        >
          The saved token was sealed by another installation (a restored backup): it cannot be read here.
        </Alert>
      ) : (
        <Alert
          color="gray"
          title={
            <Text span inherit c="var(--mantine-color-text)">
              Texts are off
            </Text>
          }
        >
          Clients are e-mailed only. Add your Twilio account to text them about their visits.
        </Alert>
      )}
      <TextInput
        label="Account SID"
        description="Twilio console → Account info. It starts with AC."
        placeholder="AC…"
        autoComplete="off"
        spellCheck={false}
        value={accountSid}
        onChange={(e) => setAccountSid(e.currentTarget.value)}
      />
      <PasswordInput
        label={view.tokenSaved ? 'Replace the auth token' : 'Auth token'}
        description="Beside the account SID. Stored sealed; never shown again."
        placeholder={view.tokenSaved ? 'A token is saved' : '32 letters and digits'}
        autoComplete="off"
        value={authToken}
        onChange={(e) => setAuthToken(e.currentTarget.value)}
      />
      <Group grow align="flex-start">
        <TextInput
          label="Texts come from"
          description="Your Twilio number, such as (916) 555-0100."
          autoComplete="off"
          value={fromNumber}
          onChange={(e) => setFromNumber(e.currentTarget.value)}
        />
        <TextInput
          label="Or a messaging service SID"
          description="Starts with MG; it picks the number."
          autoComplete="off"
          spellCheck={false}
          value={messagingServiceSid}
          onChange={(e) => setMessagingServiceSid(e.currentTarget.value)}
        />
      </Group>
      <NumberInput
        label="Texts to one number in a day, at most"
        description="None are sent between 9 PM and 8 AM. “On my way” goes at any hour and past the limit, once a visit."
        min={1}
        max={50}
        allowDecimal={false}
        maw={320}
        value={dailyLimit}
        onChange={setDailyLimit}
      />
      <Text size="sm" c="dimmed">
        Carriers in the US only deliver texts from a registered business number (A2P 10DLC). In Twilio, register your
        brand and a campaign of the “Customer care” or “Mixed” use case, with sample messages such as “Sac Handyman:
        your visit is booked for Tue, Mar 16, 10:00 AM - 12:00 PM”, and add your number to it. Set the number’s
        incoming-message webhook to{' '}
        <Text span ff="monospace" size="sm" c="var(--mantine-color-text)" style={{ overflowWrap: 'anywhere' }}>
          {view.inboundUrl}
        </Text>{' '}
        so STOP and START replies reach us.{' '}
        <Anchor
          href="https://www.twilio.com/docs/messaging/compliance/a2p-10dlc"
          target="_blank"
          rel="noreferrer"
          underline="always"
        >
          Twilio’s A2P 10DLC guide
        </Anchor>
      </Text>
      {problem ? (
        <Text c="red.9" size="sm" role="alert">
          {problem}
        </Text>
      ) : null}
      <Group gap="sm">
        <Button onClick={() => void submit()} loading={save.isPending}>
          Save text messages
        </Button>
        {view.tokenSaved ? (
          <Button variant="subtle" color="red" loading={turnOff.isPending} onClick={() => turnOff.mutate()}>
            Turn off and forget the account
          </Button>
        ) : null}
      </Group>
      <Group gap="sm" align="flex-end">
        <TextInput
          label="Send a test text to"
          placeholder="(916) 555-0142"
          type="tel"
          autoComplete="off"
          disabled={!view.enabled}
          value={testTo}
          onChange={(e) => setTestTo(e.currentTarget.value)}
        />
        <Button
          variant="light"
          disabled={!view.enabled || !testTo.trim()}
          loading={test.isPending}
          onClick={() =>
            test.mutate(testTo, {
              onSuccess: (r) => toast.success(r.message),
              onError: (e) => toast.error(e.message),
            })
          }
        >
          Send a test text
        </Button>
      </Group>
    </Stack>
  );
}
