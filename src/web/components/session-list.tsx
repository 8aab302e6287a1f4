import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile, IconLogout } from '@tabler/icons-react';
import type { SessionView } from '#shared/schemas/auth';
import { formatDateTime } from './date-text';

/**
 * Where someone is signed in (Your account, and a user's sessions on Users): each live sign-in with its
 * browser, address, when it began and was last used, and a button to sign out that one.
 */
export function SessionList({
  sessions,
  error,
  timeZone,
  ending,
  onEnd,
  currentLabel = 'This device',
}: {
  /** Undefined while loading. */
  sessions: SessionView[] | undefined;
  /** Why they could not be loaded. */
  error: Error | null;
  timeZone: string;
  /** The session being signed out, its button busy. */
  ending: string | null;
  onEnd: (session: SessionView) => void;
  currentLabel?: string;
}) {
  if (error)
    return (
      <Alert color="red" title="Could not be loaded">
        {error.message}
      </Alert>
    );
  if (!sessions)
    return (
      <Text size="sm" c="dimmed">
        Loading…
      </Text>
    );
  if (sessions.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Not signed in anywhere.
      </Text>
    );
  return (
    <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Sessions">
      {sessions.map((session, index) => (
        <Group
          key={session._id}
          component="li"
          justify="space-between"
          wrap="wrap"
          gap="sm"
          py="sm"
          style={index ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}
          aria-label={`${session.device}${session.current ? `, ${currentLabel.toLowerCase()}` : ''}`}
        >
          <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
            {/Android|iOS/.test(session.device) ? (
              <IconDeviceMobile size={20} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
            ) : (
              <IconDeviceDesktop size={20} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
            )}
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="xs">
                <Text fw={600}>{session.device}</Text>
                {session.current ? (
                  <Badge variant="light" color="brand" c="brand.8">
                    {currentLabel}
                  </Badge>
                ) : null}
              </Group>
              <Text size="sm" c="dimmed">
                Signed in {formatDateTime(session.signedInAt, timeZone)} · last used{' '}
                {formatDateTime(session.lastSeenAt, timeZone)}
                {session.ip ? ` · ${session.ip}` : ''}
              </Text>
            </Stack>
          </Group>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconLogout size={14} aria-hidden />}
            loading={ending === session._id}
            onClick={() => onEnd(session)}
            aria-label={`Sign out this session: ${session.device}, signed in ${formatDateTime(session.signedInAt, timeZone)}`}
          >
            Sign out this session
          </Button>
        </Group>
      ))}
    </Stack>
  );
}
