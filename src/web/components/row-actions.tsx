import { ActionIcon } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';

/** A list row's Edit and Delete icon buttons, as two cells, named for screen readers by the row's `name`. */
export function editAndDeleteCells(name: string, onEdit: () => void, onDelete: () => void) {
  return [
    <ActionIcon key="e" variant="subtle" aria-label={`Edit ${name}`} onClick={onEdit}>
      <IconPencil size={18} aria-hidden />
    </ActionIcon>,
    <ActionIcon key="d" variant="subtle" color="red.9" aria-label={`Delete ${name}`} onClick={onDelete}>
      <IconTrash size={18} aria-hidden />
    </ActionIcon>,
  ];
}
