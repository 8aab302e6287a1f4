import { Button, Group, Stack, Text } from '@mantine/core';
import { ON_MY_WAY_MINUTES, type TextState } from '#shared/schemas/texts';
import { formatClock, wallTimeIn } from '#shared/dates';
import { ApiError } from '../../../lib/api-client';
import { siteConfig } from '../../../lib/site-config';
import { useOnMyWay } from '../api/visits';

const SENT_STATE: Partial<Record<TextState, string>> = {
  queued: 'sending',
  sent: 'sent',
  delivered: 'delivered',
  failed: 'not delivered',
  'not-sent': 'not sent',
};

/**
 * The crew's "On my way" on today's visit card (decision 045): one tap with the minutes until they
 * arrive tells the client, once per visit. It needs signal; without it the card says so.
 */
export function OnMyWay({ visitId }: { visitId: string }) {
  const { state, send } = useOnMyWay(visitId);
  const { timeZone } = siteConfig();
  if (!state.data) {
    // Not known without signal (or the server): said, rather than a button that cannot work.
    return state.isError && !(state.error instanceof ApiError) ? (
      <Text size="sm" c="dimmed">
        On my way needs signal.
      </Text>
    ) : null;
  }
  const view = state.data;
  if (view.sentAt) {
    const how = view.state ? SENT_STATE[view.state] : null;
    return (
      <Text size="sm" fw={600} role="status" data-testid="on-my-way-sent">
        On my way told the client at {formatClock(wallTimeIn(timeZone, new Date(view.sentAt)).time)}
        {how ? ` (${how})` : ''}
      </Text>
    );
  }
  if (!view.available) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600} id={`omw-${visitId}`}>
        On my way: arriving in
      </Text>
      <Group gap={6} role="group" aria-labelledby={`omw-${visitId}`} wrap="nowrap">
        {ON_MY_WAY_MINUTES.map((minutes) => (
          <Button
            key={minutes}
            variant="light"
            size="sm"
            miw={44}
            h={44}
            flex={1}
            px={4}
            loading={send.isPending && send.variables === minutes}
            disabled={send.isPending}
            onClick={() => send.mutate(minutes)}
            aria-label={`On my way, arriving in ${minutes} minutes`}
          >
            {minutes} min
          </Button>
        ))}
      </Group>
      {send.isError ? (
        <Text size="sm" c="red.9" role="alert">
          {send.error instanceof ApiError
            ? send.error.message
            : 'No signal: the client was not told. Tap again once you have signal.'}
        </Text>
      ) : null}
    </Stack>
  );
}
