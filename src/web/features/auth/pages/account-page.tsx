import {
  Alert,
  Button,
  Code,
  Group,
  List,
  Modal,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import type { SessionView } from '#shared/schemas/auth';
import type { TwoStepEnrolment } from '#shared/schemas/two-step';
import { formatDateTime } from '../../../components/date-text';
import { PageHeader } from '../../../components/page-header';
import { SectionCard } from '../../../components/section-card';
import { SessionList } from '../../../components/session-list';
import { ApiError } from '../../../lib/api-client';
import { useSiteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { logout, useUserRole } from '../api/session';
import { useMay } from '../../../lib/team-role';
import { ApiKeysCard } from '../components/api-keys-card';
import { useEndOwnSession, useOwnSessions } from '../api/sessions';
import {
  useConfirmTwoStep,
  useDisableTwoStep,
  useRefreshTwoStep,
  useRenewRecoveryCodes,
  useStartTwoStep,
  useTwoStep,
} from '../api/two-step';

const message = (error: unknown) => (error instanceof ApiError ? error.message : 'Something went wrong. Try again.');

/** The key in groups of four, as authenticator apps show typed keys. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

function saveCodes(codes: string[]) {
  const text = `Recovery codes for two-step sign-in. Each works once, in place of the app's code.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * A form that sends a code from the app for the ten recovery codes (turning on, or new ones): an
 * empty field is answered at once; a wrong code empties it and says why; the codes go to `onCodes`.
 */
function useCodeForm(send: (code: string) => Promise<{ recoveryCodes: string[] }>, onCodes: (codes: string[]) => void) {
  const [code, setCode] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      toast.warning('Type the 6 digits your app shows');
      return;
    }
    try {
      const { recoveryCodes } = await send(code.trim());
      // A warning of an earlier wrong code is done with.
      toast.clear();
      setCode('');
      onCodes(recoveryCodes);
    } catch (error) {
      setCode('');
      toast.warning(message(error));
    }
  };
  return { code, setCode, submit };
}

/** Step 1 and 2 of turning it on: scan (or type) the key, then type back the code the app shows. */
function Enrol({
  enrolment,
  onDone,
  onCancel,
}: {
  enrolment: TwoStepEnrolment;
  onDone: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const confirm = useConfirmTwoStep();
  const { code, setCode, submit } = useCodeForm(confirm.mutateAsync, onDone);
  return (
    <form onSubmit={submit} noValidate aria-label="Turn on two-step sign-in">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              1. Scan this code with an authenticator app
            </Text>
            <Text size="sm" c="dimmed">
              Google Authenticator, Microsoft Authenticator, 1Password or any app for “time-based codes”.
            </Text>
            <img
              src={`data:image/svg+xml;base64,${btoa(enrolment.qrSvg)}`}
              alt="QR code to scan with your authenticator app"
              width={200}
              height={200}
              style={{ background: 'white', borderRadius: 8 }}
            />
          </Stack>
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              Cannot scan? Type this key in the app
            </Text>
            <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} aria-label="Key for the app">
              {grouped(enrolment.secret)}
            </Code>
            <Text size="sm" fw={600} mt="sm">
              2. Type the code the app shows
            </Text>
            <TextInput
              label="6-digit code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={8}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              disabled={confirm.isPending}
            />
          </Stack>
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={confirm.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={confirm.isPending}>
            Turn on
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The ten recovery codes, shown this once: at enrolment, or made anew (`renewed`). */
function RecoveryCodes({ codes, onSaved, renewed }: { codes: string[]; onSaved: () => void; renewed: boolean }) {
  return (
    <Stack gap="sm">
      <Alert
        color="green"
        title={
          // In the text's colour: the light green alert's own title is too faint on its background.
          <Text span inherit c="var(--mantine-color-text)">
            {renewed ? 'New recovery codes made' : 'Two-step sign-in is on'}
          </Text>
        }
        icon={<IconShieldCheck aria-hidden />}
      >
        {renewed
          ? 'The earlier codes no longer work.'
          : 'From now on you sign in with your password and the code your app shows.'}
      </Alert>
      <Text size="sm" fw={600}>
        Keep these recovery codes somewhere safe, away from your phone
      </Text>
      <Text size="sm">
        If you lose your phone, each code signs you in once in place of the app&apos;s code. They are shown only now.
      </Text>
      <List
        aria-label="Recovery codes"
        listStyleType="none"
        spacing={2}
        style={{ fontFamily: 'var(--mantine-font-family-monospace)', columns: '2 8rem' }}
      >
        {codes.map((c) => (
          <List.Item key={c}>{c}</List.Item>
        ))}
      </List>
      <Group>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => saveCodes(codes)}>
          Download the codes
        </Button>
        <Button onClick={onSaved}>I have saved them</Button>
      </Group>
    </Stack>
  );
}

/** Ten new recovery codes for a code from the app: the person still has it. */
function NewCodes({
  opened,
  onClose,
  onMade,
}: {
  opened: boolean;
  onClose: () => void;
  onMade: (codes: string[]) => void;
}) {
  const renew = useRenewRecoveryCodes();
  const { code, setCode, submit } = useCodeForm(renew.mutateAsync, onMade);
  return (
    <Modal opened={opened} onClose={onClose} title="New recovery codes">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">Ten new codes replace the ones you have: the earlier codes stop working.</Text>
          <TextInput
            label="Code from your authenticator app"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={renew.isPending}>
              Make new codes
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function TurnOff({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const disable = useDisableTwoStep();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password || !code.trim()) {
      toast.warning('Type your password and a code');
      return;
    }
    try {
      await disable.mutateAsync({ password, code: code.trim() });
      toast.success('Two-step sign-in is off');
      setPassword('');
      setCode('');
      onClose();
    } catch (error) {
      toast.warning(message(error));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Turn off two-step sign-in">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">Your password and the code your app shows (or a recovery code) confirm it is you.</Text>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the password' }}
          />
          <TextInput
            label="Code from your authenticator app"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep it on
            </Button>
            <Button type="submit" color="red" loading={disable.isPending}>
              Turn off
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function TwoStepCard() {
  const state = useTwoStep();
  const start = useStartTwoStep();
  const refresh = useRefreshTwoStep();
  const navigate = useNavigate();
  const { timeZone } = useSiteConfig();
  const [enrolment, setEnrolment] = useState<TwoStepEnrolment | null>(null);
  const [codes, setCodes] = useState<{ list: string[]; renewed: boolean } | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [renewing, setRenewing] = useState(false);

  const begin = async () => {
    try {
      setEnrolment(await start.mutateAsync());
    } catch (error) {
      toast.warning(message(error));
    }
  };

  let body;
  if (codes)
    body = (
      <RecoveryCodes
        codes={codes.list}
        renewed={codes.renewed}
        onSaved={() => {
          setCodes(null);
          void refresh();
          // Settings required it before anything else: now the rest of the app is open.
          if (!codes.renewed && state.data?.required) void navigate(paths.admin.root);
        }}
      />
    );
  else if (enrolment)
    body = (
      <Enrol
        enrolment={enrolment}
        onCancel={() => setEnrolment(null)}
        onDone={(recovery) => {
          setEnrolment(null);
          setCodes({ list: recovery, renewed: false });
        }}
      />
    );
  else if (state.isError)
    body = (
      <Alert color="red" title="Could not be loaded">
        {state.error.message}
      </Alert>
    );
  else if (!state.data)
    body = (
      <Text size="sm" c="dimmed">
        Loading…
      </Text>
    );
  else if (state.data.enabled)
    body = (
      <Stack gap="sm">
        <Text size="sm">
          <strong>On</strong>
          {state.data.since ? ` since ${formatDateTime(state.data.since, timeZone)}` : ''}: you sign in with your
          password and the code your authenticator app shows. {state.data.recoveryCodesLeft} of 10 recovery codes left.
        </Text>
        {state.data.recoveryCodesLeft <= 3 ? (
          <Alert
            color="orange"
            title={
              <Text span inherit c="var(--mantine-color-text)">
                Few recovery codes left
              </Text>
            }
          >
            Make ten new ones with New recovery codes, and keep them somewhere safe.
          </Alert>
        ) : null}
        {state.data.required ? (
          <Text size="sm" c="dimmed">
            Your business requires two-step sign-in for Owner and Office accounts, so it stays on.
          </Text>
        ) : null}
        <Group>
          <Button variant="default" onClick={() => setRenewing(true)}>
            New recovery codes
          </Button>
          {state.data.required ? null : (
            <Button variant="default" color="red" onClick={() => setTurningOff(true)}>
              Turn off two-step sign-in
            </Button>
          )}
        </Group>
      </Stack>
    );
  else
    body = (
      <Stack gap="sm">
        {state.data.required ? (
          <Alert
            color="orange"
            role="alert"
            title={
              <Text span inherit c="var(--mantine-color-text)">
                Two-step sign-in is required
              </Text>
            }
          >
            {messages.twoStepSetupRequired}
          </Alert>
        ) : null}
        <Text size="sm">
          <strong>Off.</strong> With two-step sign-in, a stolen or guessed password is not enough: signing in also takes
          the 6-digit code an app on your phone shows, new every 30 seconds.
        </Text>
        <Group>
          <Button leftSection={<IconShieldCheck size={16} />} loading={start.isPending} onClick={() => void begin()}>
            Turn on two-step sign-in
          </Button>
        </Group>
      </Stack>
    );

  return (
    <SectionCard title="Two-step sign-in">
      {body}
      <TurnOff opened={turningOff} onClose={() => setTurningOff(false)} />
      <NewCodes
        opened={renewing}
        onClose={() => setRenewing(false)}
        onMade={(list) => {
          setRenewing(false);
          setCodes({ list, renewed: true });
        }}
      />
    </SectionCard>
  );
}

/** Where this person is signed in; signing out this device's session is signing out here. */
function SessionsCard() {
  const sessions = useOwnSessions();
  const end = useEndOwnSession();
  const navigate = useNavigate();
  const { timeZone } = useSiteConfig();
  const [ending, setEnding] = useState<string | null>(null);

  const signOut = async (session: SessionView) => {
    if (session.current) {
      logout();
      void navigate(paths.login, { replace: true });
      return;
    }
    setEnding(session._id);
    try {
      await end.mutateAsync(session._id);
      toast.success(`Signed out: ${session.device}`);
    } catch (error) {
      toast.warning(message(error));
    } finally {
      setEnding(null);
    }
  };

  return (
    <SectionCard title="Where you are signed in">
      <Text size="sm" c="dimmed" mb="xs">
        A session you do not recognise? Sign it out, then change your password.
      </Text>
      <SessionList
        sessions={sessions.data?.sessions}
        error={sessions.error}
        timeZone={timeZone}
        ending={ending}
        onEnd={(session) => void signOut(session)}
      />
    </SectionCard>
  );
}

/**
 * The signed-in person's own account: two-step sign-in (decision 040), where they are signed in, and
 * for the Owner their API keys.
 */
export default function AccountPage() {
  const role = useUserRole();
  // API keys are the Owner's (decision 042), once any two-step set-up Settings require is done.
  const owner = useMay('owner') && role.data?.twoStepSetupRequired !== true;
  return (
    <>
      <PageHeader title="Your account" />
      <Stack gap="md" maw={900}>
        <TwoStepCard />
        <SessionsCard />
        {owner ? <ApiKeysCard /> : null}
      </Stack>
    </>
  );
}
