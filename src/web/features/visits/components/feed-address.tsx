import { Button, CopyButton, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../lib/toast';
import { useFeedUrl } from '../api/visits';
import classes from './feed-address.module.css';

/** The secret address of a calendar feed (the company's or the worker's own), to copy or replace. */
export function FeedAddress({ scope }: { scope: 'company' | 'mine' }) {
  const { feed, regenerate } = useFeedUrl(scope);
  const [asking, setAsking] = useState(false);
  return (
    <Paper withBorder radius="lg" p="md" mt="md">
      <Stack gap="xs">
        <Text fw={700}>{scope === 'company' ? 'Subscribe to the company calendar' : 'Subscribe to my visits'}</Text>
        <Text size="sm" c="dimmed">
          Add this address to Google Calendar, Apple Calendar or Outlook (“subscribe by URL”). Keep it private: anyone
          with it sees the visits.
        </Text>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label="Calendar address"
            readOnly
            value={feed.data?.url ?? ''}
            className={classes.feed}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton value={feed.data?.url ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy} disabled={!feed.data}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={() => setAsking(true)}>
            New address
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={asking}
        onClose={() => setAsking(false)}
        title="Make a new address?"
        confirmLabel="Make a new address"
        loading={regenerate.isPending}
        onConfirm={() =>
          regenerate.mutate(undefined, {
            onSuccess: () => {
              setAsking(false);
              toast.success('New calendar address made: the old one no longer works');
            },
          })
        }
      >
        <Text size="sm">Calendars subscribed to the old address stop receiving visits.</Text>
      </ConfirmDialog>
    </Paper>
  );
}
