import { Text } from '@mantine/core';
import { formatDayWindow } from '#shared/dates';
import { ConfirmDialog } from '../../../components/confirm-dialog';

/** A visit's new time, before anyone tells the client. */
export interface NewTime {
  client: string;
  date: string;
  start: string;
  end: string;
}

/**
 * Asked whenever a booked visit gets a new time (dragged, resized or changed in its dialog): e-mail
 * the client the new time with an updated calendar invitation, or move it without telling them (a
 * time agreed on the phone). Closing the dialog answers neither.
 */
export function TellClientDialog({
  move,
  loading,
  onAnswer,
  onClose,
}: {
  move: NewTime | null;
  loading?: boolean;
  onAnswer: (notifyClient: boolean) => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      opened={move !== null}
      title="Tell the client?"
      confirmLabel="Tell the client"
      cancelLabel="Move without telling them"
      onConfirm={() => onAnswer(true)}
      onCancel={() => onAnswer(false)}
      onClose={onClose}
      loading={loading}
    >
      {move ? (
        <>
          <Text size="sm">
            New time: <strong>{formatDayWindow(move.date, move.start, move.end)}</strong>
          </Text>
          <Text size="sm">
            Tell {move.client} the new time as they chose (by e-mail with an updated calendar invitation, or by text),
            or move the visit without telling them (when you agreed it on the phone, say).
          </Text>
        </>
      ) : null}
    </ConfirmDialog>
  );
}

/** What the office is told once a visit's dialog is saved. */
export const savedToast = (body: { notifyClient?: boolean | undefined }) =>
  body.notifyClient === undefined
    ? 'Visit saved'
    : body.notifyClient
      ? 'Visit saved: the client is told the new time'
      : 'Visit saved: the client is not told';
