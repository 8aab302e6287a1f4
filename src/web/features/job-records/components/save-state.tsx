import { Alert, Badge, Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCloudCheck, IconCloudOff, IconCloudUp } from '@tabler/icons-react';
import { dismissRefused, useOutbox } from '../api/record';

/** "Saved", "Saving…" or "Waiting for signal": whether the office has what the crew entered. */
export function SaveState({ jobId }: { jobId: string }) {
  const outbox = useOutbox();
  const pending = outbox.pending.filter((c) => c.scope === jobId).length;
  const refused = outbox.refused.filter((r) => r.change.scope === jobId);
  const [color, Icon, text] =
    pending === 0
      ? (['success', IconCloudCheck, 'Saved'] as const)
      : outbox.waiting
        ? ([
            'orange',
            IconCloudOff,
            `Waiting for signal: ${pending} ${pending === 1 ? 'change' : 'changes'} kept on this phone, sent when the signal returns`,
          ] as const)
        : (['brand', IconCloudUp, 'Saving…'] as const);
  return (
    <Stack gap="xs">
      <Paper
        role="status"
        aria-live="polite"
        aria-label="Save state"
        px="sm"
        py={6}
        radius="md"
        bg={`var(--mantine-color-${color}-light)`}
        c={`var(--mantine-color-${color}-light-color)`}
      >
        <Group gap={8} wrap="nowrap">
          <Icon size={18} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" fw={600}>
            {text}
          </Text>
        </Group>
      </Paper>
      {refused.length ? (
        <Alert color="red" title="Some changes were not saved">
          <Stack gap={4}>
            {refused.map((r) => (
              <Text size="sm" key={r.change.id}>
                {r.message}
              </Text>
            ))}
            <Group>
              <Button size="xs" variant="light" color="red" onClick={dismissRefused}>
                Dismiss
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
    </Stack>
  );
}

/**
 * "3 changes waiting", stuck to the bottom of the screen while any of this job's changes are not on the
 * server: still in sight at the signature and at Complete job, however far the page is scrolled.
 */
export function PendingChip({ jobId }: { jobId: string }) {
  const outbox = useOutbox();
  const pending = outbox.pending.filter((c) => c.scope === jobId).length;
  if (pending === 0) return null;
  return (
    <Box pos="sticky" bottom={12} style={{ zIndex: 3, alignSelf: 'center' }}>
      <Badge
        size="xl"
        radius="xl"
        color={outbox.waiting ? 'orange' : 'brand'}
        leftSection={outbox.waiting ? <IconCloudOff size={18} aria-hidden /> : <IconCloudUp size={18} aria-hidden />}
        style={{ boxShadow: 'var(--mantine-shadow-md)', textTransform: 'none' }}
        aria-label={`${pending} ${pending === 1 ? 'change' : 'changes'} waiting`}
      >
        {pending} {pending === 1 ? 'change' : 'changes'} waiting
      </Badge>
    </Box>
  );
}
