import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { formatMoment, formatShortDay } from '#shared/dates';
import type { WindowView } from '#shared/schemas/booking';
import type { ClientPageView } from '#shared/schemas/client-page';
import { PlainTextarea } from '../../../components/plain-textarea';
import { WindowPicker, windowWords } from '../../../components/window-picker';
import { hasErrorCode } from '../../../lib/api-client';
import { siteConfig } from '../../../lib/site-config';
import { WhenHydrated } from '../../../lib/use-hydrated';
import { useVisitChangeOptions, useVisitChanges } from '../api/client-page';

type Visit = ClientPageView['visits'][number];

/** The page's own link: it proves whose visits these are. */
export interface PageLink {
  id: string;
  token: string;
}

function CallUs({ words }: { words: string }) {
  const phone = siteConfig().businessPhone;
  return (
    <Text size="sm">
      {words}{' '}
      <Anchor href={`tel:${phone.replace(/[^\d+]/g, '')}`} underline="always">
        {phone}
      </Anchor>
      .
    </Text>
  );
}

/**
 * Reschedule or cancel a visit from the client's page (decision 046): until the cut-off the owner set,
 * to the windows its crew is free for; after it, or when the business takes changes by phone, the
 * number to call. `onDone` tells the page what happened (a cancelled visit leaves the list).
 */
export function VisitChange({ visit, link, onDone }: { visit: Visit; link: PageLink; onDone: (said: string) => void }) {
  const [mode, setMode] = useState<'idle' | 'reschedule' | 'cancel'>('idle');
  // The moment the page was drawn decides, as for Confirm: a page left open past the cut-off is told so by the server.
  const [drawnAt] = useState(() => Date.now());
  if (!visit.change) return <CallUs words="To change this visit, call us at" />;
  if (Date.parse(visit.change.until) <= drawnAt)
    return <CallUs words="It is too close to the visit to change it online. To change it, call us at" />;
  const label = formatShortDay(visit.date);
  return (
    <Stack gap={6} mt={4}>
      {mode === 'idle' ? (
        <>
          <Text size="sm" c="dimmed">
            You can reschedule or cancel online until {formatMoment(visit.change.until, siteConfig().timeZone)}.
          </Text>
          <WhenHydrated>
            {(hydrated) => (
              <Group gap="xs">
                {visit.change!.movesLeft > 0 ? (
                  <Button
                    size="sm"
                    variant="light"
                    disabled={!hydrated}
                    onClick={() => setMode('reschedule')}
                    aria-label={`Reschedule the visit of ${label}`}
                  >
                    Reschedule
                  </Button>
                ) : null}
                <Button
                  size="sm"
                  variant="subtle"
                  color="red.9"
                  disabled={!hydrated}
                  onClick={() => setMode('cancel')}
                  aria-label={`Cancel the visit of ${label}`}
                >
                  Cancel visit
                </Button>
              </Group>
            )}
          </WhenHydrated>
          {visit.change.movesLeft === 0 ? (
            <CallUs words="You have moved this visit as often as you can online: to move it again, call us at" />
          ) : null}
        </>
      ) : mode === 'reschedule' ? (
        <Reschedule visit={visit} link={link} onClose={() => setMode('idle')} onDone={onDone} />
      ) : (
        <Cancel visit={visit} link={link} onClose={() => setMode('idle')} onDone={onDone} />
      )}
    </Stack>
  );
}

function Reschedule({
  visit,
  link,
  onClose,
  onDone,
}: {
  visit: Visit;
  link: PageLink;
  onClose: () => void;
  onDone: (said: string) => void;
}) {
  const options = useVisitChangeOptions(link.id, link.token, visit.id, true);
  const { reschedule } = useVisitChanges(link.id, link.token, visit.id);
  const [picked, setPicked] = useState<WindowView | null>(null);
  // After a 409 the server's fresh windows replace the ones read.
  const [fresh, setFresh] = useState<WindowView[] | null>(null);
  const windows = fresh ?? options.data?.windows ?? [];
  const move = () => {
    if (!picked) return;
    reschedule.mutate(picked, {
      onSuccess: (answer) => {
        onClose();
        onDone(`Your visit has moved to ${answer.when}. We have e-mailed you the new time.`);
      },
      onError: (error) => {
        if (hasErrorCode(error, 'WINDOW_TAKEN')) {
          setFresh((error.body as { windows: WindowView[] }).windows);
          setPicked(null);
        }
      },
    });
  };
  if (options.isPending) return <Text size="sm">Finding the times we can come…</Text>;
  if (options.isError)
    return (
      <Alert color="red" title="The times could not be read" role="alert">
        {options.error.message}
      </Alert>
    );
  if (!options.data.open) return <CallUs words="This visit can no longer be changed online. Call us at" />;
  return (
    <Stack gap="xs" role="group" aria-label="Pick a new time">
      <Text size="sm" fw={600}>
        Pick a new time
      </Text>
      {windows.length === 0 ? (
        <CallUs words="We have no free times online in the coming weeks. To find one, call us at" />
      ) : null}
      <WindowPicker windows={windows} picked={picked} onPick={setPicked} />
      {reschedule.isError ? (
        <Text size="sm" c="red.9" role="alert">
          {reschedule.error.message}
        </Text>
      ) : null}
      <Group gap="xs">
        <Button size="sm" disabled={!picked} loading={reschedule.isPending} onClick={move}>
          {picked ? `Move my visit to ${windowWords(picked)}` : 'Move my visit'}
        </Button>
        <Button size="sm" variant="default" onClick={onClose}>
          Keep the current time
        </Button>
      </Group>
    </Stack>
  );
}

function Cancel({
  visit,
  link,
  onClose,
  onDone,
}: {
  visit: Visit;
  link: PageLink;
  onClose: () => void;
  onDone: (said: string) => void;
}) {
  const { cancel } = useVisitChanges(link.id, link.token, visit.id);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = () => {
    if (!reason.trim()) return setProblem('Tell us why, so we can help');
    setProblem(null);
    cancel.mutate(reason.trim(), {
      onSuccess: () => onDone(`Your visit of ${formatShortDay(visit.date)} is cancelled. We have let the office know.`),
    });
  };
  return (
    <Stack gap="xs">
      <PlainTextarea
        label="Why are you cancelling?"
        description="The office reads this, so they can help or find another time"
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        maxLength={500}
        error={problem ?? (cancel.isError ? cancel.error.message : undefined)}
        autoFocus
      />
      <Group gap="xs">
        <Button size="sm" color="red.9" loading={cancel.isPending} onClick={submit}>
          Cancel my visit
        </Button>
        <Button size="sm" variant="default" onClick={onClose}>
          Keep my visit
        </Button>
      </Group>
    </Stack>
  );
}
