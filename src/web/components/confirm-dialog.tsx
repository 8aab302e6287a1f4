import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The other button ("Cancel" unless named); `onCancel` when it does more than close. */
  cancelLabel?: string;
  onCancel?: () => void;
  confirmColor?: string;
  loading?: boolean;
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A dialog with a message and Cancel / confirm buttons; the confirm button spins while working. */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  onCancel,
  confirmColor,
  loading,
  confirmDisabled,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={loading ? () => {} : onClose} title={title} centered radius="lg">
      <Stack>
        {children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel ?? onClose} disabled={loading}>
            {cancelLabel}
          </Button>
          <Button color={confirmColor} onClick={onConfirm} loading={loading} disabled={confirmDisabled}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
