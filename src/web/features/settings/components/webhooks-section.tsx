import { Badge, Button, Checkbox, Group, Loader, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { formatMoment } from '#shared/dates';
import {
  MAX_WEBHOOKS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  webhookInput,
  type WebhookCreated,
  type WebhookEvent,
  type WebhookView,
} from '#shared/schemas/webhooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SecretShownOnce } from '../../../components/secret-shown-once';
import { SectionCard } from '../../../components/section-card';
import { ApiError } from '../../../lib/api-client';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useWebhookChanges, useWebhookDeliveries, useWebhooks } from '../api/webhooks';

const STATE_COLORS = { delivered: 'green', waiting: 'gray', failing: 'orange', failed: 'red' } as const;
const STATE_WORDS = { delivered: 'Delivered', waiting: 'Waiting', failing: 'Retrying', failed: 'Failed' } as const;
const when = (iso: string) => formatMoment(iso, siteConfig().timeZone);

function StateBadge({ state }: { state: keyof typeof STATE_WORDS }) {
  return (
    <Badge variant="light" color={STATE_COLORS[state]} c="dark.6">
      {STATE_WORDS[state]}
    </Badge>
  );
}

/** The signing secret of a new webhook, shown this once. */
function NewSecret({ made, onDone }: { made: WebhookCreated; onDone: () => void }) {
  return (
    <SecretShownOnce
      title="Copy the signing secret now"
      note={'It is shown only this once. The receiver checks each delivery with it (README: "Webhooks").'}
      label="Signing secret"
      value={made.secret}
      onDone={onDone}
    />
  );
}

/** A webhook's delivery log, with "Send again". */
function Deliveries({ webhook }: { webhook: WebhookView }) {
  const log = useWebhookDeliveries(webhook._id, true);
  const { sendAgain } = useWebhookChanges();
  if (log.isPending) return <Loader size="sm" aria-label="Loading the deliveries" />;
  if (log.isError) return <Text size="sm">The deliveries could not be loaded: {log.error.message}</Text>;
  if (log.data.deliveries.length === 0) return <Text size="sm">Nothing sent yet.</Text>;
  return (
    <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={`Deliveries to ${webhook.url}`}>
      {log.data.deliveries.map((d) => (
        <Group key={d._id} component="li" justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0} style={{ flex: '1 1 14rem' }}>
            <Group gap="xs">
              <Text size="sm" fw={600}>
                {WEBHOOK_EVENT_LABELS[d.event]}
              </Text>
              <StateBadge state={d.state} />
            </Group>
            <Text size="xs" c="dimmed">
              {when(d.deliveredAt ?? d.createdAt)} · {d.attempts} {d.attempts === 1 ? 'try' : 'tries'}
              {d.lastError ? ` · ${d.lastError}` : d.lastStatus ? ` · answered ${d.lastStatus}` : ''}
            </Text>
          </Stack>
          <Button
            size="xs"
            variant="default"
            loading={sendAgain.isPending && sendAgain.variables?.deliveryId === d._id}
            onClick={() =>
              sendAgain.mutate(
                { id: webhook._id, deliveryId: d._id },
                {
                  onSuccess: () => {
                    toast.success('Sent again');
                    void log.refetch();
                  },
                  onError: (error) => toast.error(error.message),
                },
              )
            }
          >
            Send again
          </Button>
        </Group>
      ))}
    </Stack>
  );
}

function WebhookRow({ webhook, onRemove }: { webhook: WebhookView; onRemove: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ flex: '1 1 16rem', minWidth: 0 }}>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {webhook.url}
            </Text>
            {webhook.description ? (
              <Text size="xs" c="dimmed">
                {webhook.description}
              </Text>
            ) : null}
            <Text size="xs">{webhook.events.map((e) => WEBHOOK_EVENT_LABELS[e]).join(' · ')}</Text>
            {webhook.lastDelivery ? (
              <Group gap="xs">
                <Text size="xs" c="dimmed">
                  Last: {when(webhook.lastDelivery.at)}
                </Text>
                <StateBadge state={webhook.lastDelivery.state} />
              </Group>
            ) : null}
          </Stack>
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
              {open ? 'Hide deliveries' : 'Deliveries'}
            </Button>
            <Button size="xs" variant="subtle" color="red" c="red.9" onClick={onRemove}>
              Remove
            </Button>
          </Group>
        </Group>
        {open ? <Deliveries webhook={webhook} /> : null}
      </Stack>
    </Paper>
  );
}

/**
 * Settings → Webhooks (decision 044): the addresses the business's other tools listen at, the events
 * each hears of, a signing secret shown once, and each one's delivery log.
 */
export function WebhooksSection() {
  const webhooks = useWebhooks();
  const { add, remove } = useWebhookChanges();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [made, setMade] = useState<WebhookCreated | null>(null);
  const [removing, setRemoving] = useState<WebhookView | null>(null);
  const list = webhooks.data?.webhooks ?? [];

  const submit = () => {
    const parsed = webhookInput.safeParse({ url, events });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    add.mutate(parsed.data, {
      onSuccess: (created) => {
        setMade(created);
        setUrl('');
        setErrors({});
      },
      onError: (error) =>
        error instanceof ApiError && error.message.startsWith('url: ')
          ? setErrors({ url: error.message.slice(5) })
          : toast.error(error.message),
    });
  };

  return (
    <SectionCard title="Webhooks">
      <Stack gap="md">
        <Text size="sm">
          Your other tools hear of what happens here as it happens: each event is POSTed as JSON, signed with the
          webhook's secret, and tried again for about a day if the receiver does not answer 2xx.
        </Text>
        {made ? <NewSecret made={made} onDone={() => setMade(null)} /> : null}
        {webhooks.isPending ? (
          <Loader size="sm" aria-label="Loading the webhooks" />
        ) : webhooks.isError ? (
          <Text size="sm">The webhooks could not be loaded: {webhooks.error.message}</Text>
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            No webhooks yet.
          </Text>
        ) : (
          <Stack gap="xs">
            {list.map((w) => (
              <WebhookRow key={w._id} webhook={w} onRemove={() => setRemoving(w)} />
            ))}
          </Stack>
        )}
        {list.length < MAX_WEBHOOKS ? (
          <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
            <TextInput
              label="Receiver's address"
              placeholder="https://hooks.example.com/handyman"
              value={url}
              onChange={(e) => {
                setUrl(e.currentTarget.value);
                setErrors(({ url: _gone, ...rest }) => rest);
              }}
              error={errors.url}
            />
            <Checkbox.Group
              label="Events"
              value={events}
              onChange={(value) => setEvents(value as WebhookEvent[])}
              error={errors.events}
            >
              <Group gap="md" mt={4}>
                {WEBHOOK_EVENTS.map((e) => (
                  <Checkbox key={e} value={e} label={WEBHOOK_EVENT_LABELS[e]} />
                ))}
              </Group>
            </Checkbox.Group>
            <Group>
              <Button variant="light" onClick={submit} loading={add.isPending}>
                Add webhook
              </Button>
            </Group>
          </Stack>
        ) : (
          <Text size="sm">At most {MAX_WEBHOOKS} webhooks: remove one to add another.</Text>
        )}
      </Stack>
      <ConfirmDialog
        opened={removing !== null}
        title="Remove webhook"
        confirmLabel="Remove"
        confirmColor="red.9"
        loading={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing._id, {
            onSuccess: () => {
              setRemoving(null);
              toast.success('Webhook removed');
            },
            onError: (error) => toast.error(error.message),
          })
        }
        onClose={() => setRemoving(null)}
      >
        <Text>{removing?.url} hears of nothing more, and its delivery log goes with it.</Text>
      </ConfirmDialog>
    </SectionCard>
  );
}
