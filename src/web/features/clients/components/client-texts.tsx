import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { formatMobile } from '#shared/phone';
import type { TextKind, TextLedgerItem, TextState } from '#shared/schemas/texts';
import { formatDateTime } from '../../../components/date-text';
import { SectionCard } from '../../../components/section-card';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useClientTexts, useSendTextAgain } from '../api/clients';

const KIND_LABELS: Record<TextKind, string> = {
  'visit-booked': 'Visit booked',
  'visit-moved': 'Visit moved',
  'visit-cancelled': 'Visit cancelled',
  'visit-reminder': 'Visit reminder',
  'on-my-way': 'On my way',
  'quote-sent': 'Quote sent',
  'invoice-sent': 'Invoice sent',
  test: 'Test text',
  reply: 'Our answer to their reply',
};

const STATE_LABELS: Record<TextState, { label: string; color: string }> = {
  queued: { label: 'Waiting to send', color: 'gray' },
  sent: { label: 'Sent', color: 'blue' },
  delivered: { label: 'Delivered', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  'not-sent': { label: 'Not sent', color: 'orange' },
  cancelled: { label: 'Called off', color: 'gray' },
};

function TextRow({
  text,
  timeZone,
  again,
}: {
  text: TextLedgerItem;
  timeZone: string;
  /** Send it again, when it failed or was not sent: by text when the client can be texted, by e-mail when they have one. */
  again: { byText: boolean; byEmail: boolean; send: (channel: 'text' | 'email') => void; pending: boolean } | null;
}) {
  const state = STATE_LABELS[text.state];
  return (
    <Stack gap={2} data-testid="client-text">
      <Text size="sm" fw={600}>
        {KIND_LABELS[text.kind]}{' '}
        <Badge variant="light" color={state.color} c="dark.6" size="sm" component="span">
          {state.label}
        </Badge>
      </Text>
      <Text size="xs" c="dimmed">
        {text.state === 'queued'
          ? `Written ${formatDateTime(text.createdAt, timeZone)}`
          : formatDateTime(text.stateAt, timeZone)}{' '}
        · to {formatMobile(text.to)}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {text.body}
      </Text>
      {text.reason && (text.state === 'failed' || text.state === 'not-sent') ? (
        <Text size="xs" c="red.9">
          {text.reason}
        </Text>
      ) : null}
      {again && (again.byText || again.byEmail) ? (
        <Group gap="xs">
          {again.byText ? (
            <Button size="compact-sm" variant="light" disabled={again.pending} onClick={() => again.send('text')}>
              Send again by text
            </Button>
          ) : null}
          {again.byEmail ? (
            <Button size="compact-sm" variant="default" disabled={again.pending} onClick={() => again.send('email')}>
              Send by e-mail instead
            </Button>
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}

/** The office's view of a client's texts (decision 045): each with where it stands, and STOP when they sent it. */
export function ClientTexts({ clientId, hasEmail }: { clientId: string; hasEmail: boolean }) {
  const texts = useClientTexts(clientId);
  const sendAgain = useSendTextAgain(clientId);
  const { timeZone } = siteConfig();
  if (!texts.data) return null;
  const { textsOn, mobile, stoppedAt } = texts.data;
  return (
    <SectionCard title="Texts" region>
      <Stack gap="sm">
        {stoppedAt ? (
          <Alert
            color="orange"
            title={
              <Text span inherit c="var(--mantine-color-text)">
                Replied STOP
              </Text>
            }
          >
            On {formatDateTime(stoppedAt, timeZone)} this client replied STOP: they get no texts (e-mail only) until
            they reply START.
          </Alert>
        ) : null}
        {!textsOn ? (
          <Text size="sm" c="dimmed">
            Texts are off (Settings → Text messages): this client is e-mailed only.
          </Text>
        ) : !mobile ? (
          <Text size="sm" c="dimmed">
            No mobile number on file: add one with Edit client to text them.
          </Text>
        ) : null}
        {texts.data.texts.length ? (
          texts.data.texts.map((t) => (
            <TextRow
              key={t._id}
              text={t}
              timeZone={timeZone}
              again={
                (t.state === 'failed' || t.state === 'not-sent') && !t.resent && t.kind !== 'on-my-way'
                  ? {
                      byText: texts.data.textable,
                      byEmail: hasEmail,
                      pending: sendAgain.isPending,
                      send: (channel) =>
                        sendAgain.mutate(
                          { id: t._id, channel },
                          {
                            onSuccess: () => toast.success(channel === 'text' ? 'Text sent again' : 'E-mailed instead'),
                            onError: (error) => toast.error(error.message),
                          },
                        ),
                    }
                  : null
              }
            />
          ))
        ) : (
          <Text size="sm" c="dimmed">
            No texts yet.
          </Text>
        )}
      </Stack>
    </SectionCard>
  );
}
