import { Textarea } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';

interface ReasonDialogProps {
  opened: boolean;
  title: string;
  /** The question the reason answers. */
  label: string;
  /** Who reads the reason (the client by e-mail, the office…). */
  description: string;
  confirmLabel: string;
  /** The button that leaves things as they are ("Keep visit"); "Cancel" unless named. */
  keepLabel?: string;
  loading: boolean;
  /** Called with the reason, trimmed and not empty. */
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/** A confirmation that needs a reason: decline a request, cancel a job or a visit. */
export function ReasonDialog({ opened, onClose, ...props }: ReasonDialogProps) {
  // Mounted on each opening (the dialog's content is), so it starts empty.
  return opened ? <ReasonForm {...props} onClose={onClose} /> : null;
}

function ReasonForm({
  title,
  label,
  description,
  confirmLabel,
  keepLabel,
  loading,
  onConfirm,
  onClose,
}: Omit<ReasonDialogProps, 'opened'>) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const confirm = () => {
    if (!reason.trim()) {
      setError('Please give a reason');
      return;
    }
    onConfirm(reason.trim());
  };
  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      title={title}
      confirmLabel={confirmLabel}
      {...(keepLabel ? { cancelLabel: keepLabel } : {})}
      confirmColor="red.9"
      loading={loading}
      onConfirm={confirm}
    >
      <Textarea
        label={label}
        description={description}
        withAsterisk
        autosize
        minRows={3}
        value={reason}
        onChange={(e) => {
          setReason(e.currentTarget.value);
          setError(undefined);
        }}
        error={error}
        data-autofocus
      />
    </ConfirmDialog>
  );
}
