import { Alert, Anchor, Badge, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import type { ApiKeyCreated, ApiKeyView } from '#shared/schemas/auth';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDateTime } from '../../../components/date-text';
import { SecretShownOnce } from '../../../components/secret-shown-once';
import { SectionCard } from '../../../components/section-card';
import { ApiError } from '../../../lib/api-client';
import { useSiteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useApiKeys, useMakeApiKey, useRevokeApiKey } from '../api/api-keys';

const SCOPES = [
  { value: 'read', label: 'Read only' },
  { value: 'write', label: 'Read and change' },
];
const scopeLabel = (scope: ApiKeyView['scope']) => (scope === 'read' ? 'Read only' : 'Read and change');

/** The key just made, shown this once with a copy button. */
function NewKey({ made, onDone }: { made: ApiKeyCreated; onDone: () => void }) {
  return (
    <SecretShownOnce
      title={`${made.name}: copy the key now`}
      note="It is shown only this once. Keep it like a password: it acts as you."
      label="API key"
      value={made.key}
      onDone={onDone}
    />
  );
}

/**
 * Your account → API keys (admins): keys for the business's own scripts and tools, each read-only or
 * read-and-change, made here, shown once, revoked here.
 */
export function ApiKeysCard() {
  const keys = useApiKeys(true);
  const make = useMakeApiKey();
  const revoke = useRevokeApiKey();
  const { timeZone } = useSiteConfig();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyView['scope']>('read');
  const [made, setMade] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      toast.warning('Name the key, e.g. the tool that will use it');
      return;
    }
    try {
      setMade(await make.mutateAsync({ name: name.trim(), scope }));
      setName('');
    } catch (error) {
      toast.warning(error instanceof ApiError ? error.message : 'The key could not be made. Try again.');
    }
  };

  const confirmRevoke = async () => {
    const target = revoking;
    if (!target) return;
    try {
      await revoke.mutateAsync(target._id);
      toast.success(`${target.name} is revoked`);
    } catch (error) {
      toast.warning(error instanceof ApiError ? error.message : 'The key could not be revoked. Try again.');
    } finally {
      setRevoking(null);
    }
  };

  const list = keys.data?.keys;
  return (
    <SectionCard title="API keys">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          For your own scripts and tools: a key is sent as <code>Authorization: Bearer hk_…</code> and does what you may
          do, read-only or not. The calls are described in the{' '}
          <Anchor href="/api/docs" target="_blank" underline="always">
            API documentation
          </Anchor>
          .
        </Text>
        {made ? <NewKey made={made} onDone={() => setMade(null)} /> : null}
        {keys.isError ? (
          <Alert color="red" title="Could not be loaded">
            {keys.error.message}
          </Alert>
        ) : !list ? (
          <Text size="sm" c="dimmed">
            Loading…
          </Text>
        ) : list.length === 0 ? (
          <Text size="sm">No API keys yet.</Text>
        ) : (
          <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="API keys">
            {list.map((k, index) => (
              <Group
                key={k._id}
                component="li"
                aria-label={k.name}
                justify="space-between"
                wrap="wrap"
                gap="sm"
                py="sm"
                style={index ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}
              >
                <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
                  <IconKey size={20} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {k.name}
                      </Text>
                      <Badge variant="light" color="gray" c="dark.6">
                        {scopeLabel(k.scope)}
                      </Badge>
                    </Group>
                    <Text size="sm" c="dimmed">
                      <code>{k.prefix}</code> · made {formatDateTime(k.createdAt, timeZone)} ·{' '}
                      {k.lastUsedAt ? `last used ${formatDateTime(k.lastUsedAt, timeZone)}` : 'never used'}
                    </Text>
                  </Stack>
                </Group>
                <Button
                  variant="default"
                  size="xs"
                  c="red.9"
                  onClick={() => setRevoking(k)}
                  aria-label={`Revoke ${k.name}`}
                >
                  Revoke
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        <form onSubmit={submit} noValidate aria-label="Make an API key">
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              label="Name"
              placeholder="e.g. Zapier, my spreadsheet"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={60}
              style={{ flex: '1 1 12rem' }}
            />
            <Select
              label="May"
              data={SCOPES}
              value={scope}
              onChange={(v) => setScope(v === 'write' ? 'write' : 'read')}
              allowDeselect={false}
              w={180}
            />
            <Button type="submit" loading={make.isPending} leftSection={<IconKey size={16} aria-hidden />}>
              Make key
            </Button>
          </Group>
        </form>
      </Stack>
      <ConfirmDialog
        opened={Boolean(revoking)}
        title="Revoke this key?"
        confirmLabel="Revoke"
        confirmColor="red.9"
        loading={revoke.isPending}
        onConfirm={() => void confirmRevoke()}
        onClose={() => setRevoking(null)}
      >
        <Text>
          {revoking?.name} stops working at once: whatever uses it gets “Sign in to continue” from its next call.
        </Text>
      </ConfirmDialog>
    </SectionCard>
  );
}
