import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMobile } from '#shared/phone';
import {
  TEXT_KIND_LABELS,
  type ClientTexts as ClientTextsView,
  type TextLedgerItem,
  type TextState,
} from '#shared/schemas/texts';
import { api } from '../lib/api-client';
import { queryRoots } from '../lib/query-roots';
import { siteConfig } from '../lib/site-config';
import { toast } from '../lib/toast';
import { formatDateTime } from './date-text';
import { SectionCard } from './section-card';

/** Only the texts about a request, or about a job (their pages); none: all the client's. */
export type TextsAbout = { quoteRequestId: string } | { jobId: string } | Record<string, never>;

const textsKey = (clientId: string) => [...queryRoots.clients, 'texts', clientId];

/** A client's texts (those about a request or a job) and whether they can be texted now (decision 045). */
function useClientTexts(clientId: string, about: TextsAbout) {
  return useQuery({
    queryKey: [...textsKey(clientId), about],
    queryFn: () => {
      const query = new URLSearchParams(about as Record<string, string>).toString();
      return api<ClientTextsView>('GET', `/clients/${encodeURIComponent(clientId)}/texts${query ? `?${query}` : ''}`);
    },
    refetchInterval: 15_000,
  });
}

/** "Send again" on a client's text that failed or was held back: by text, or by e-mail instead. */
function useSendTextAgain(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, channel }: { id: string; channel: 'text' | 'email' }) =>
      api<{ sent: 'text' | 'email' }>('POST', `/texts/${encodeURIComponent(id)}/send-again`, { body: { channel } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: textsKey(clientId) }),
  });
}

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
        {TEXT_KIND_LABELS[text.kind]}{' '}
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

/**
 * The office's view of a client's texts (decision 045): each with where it stands and Send again, and
 * STOP when they sent it. On a request's or a job's page (`about`), only the texts about it.
 */
export function ClientTexts({
  clientId,
  hasEmail,
  about = {},
  title = 'Texts',
}: {
  clientId: string;
  hasEmail: boolean;
  about?: TextsAbout;
  title?: string;
}) {
  const texts = useClientTexts(clientId, about);
  const sendAgain = useSendTextAgain(clientId);
  const { timeZone } = siteConfig();
  if (!texts.data) return null;
  const { textsOn, mobile, stoppedAt } = texts.data;
  // A request's or a job's page says nothing of texts while there are none and none can go.
  if (Object.keys(about).length > 0 && !textsOn && texts.data.texts.length === 0) return null;
  return (
    <SectionCard title={title} region>
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
