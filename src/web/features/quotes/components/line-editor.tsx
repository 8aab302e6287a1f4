import { ActionIcon, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { useFieldArray, useWatch, type DefaultValues, type FieldArray, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { FormModal, type FormModalField } from '../../../components/form-modal';
import type { QuoteFormControl, QuoteFormInput } from '../lib/quote-form';

/** What makes Materials and Labor differ: their words, their dialog's fields and schema, how a line reads. */
export interface LineKind<S extends z.ZodType<FieldValues, FieldValues>, P> {
  /** The form's list of these lines. */
  name: 'materials' | 'labor';
  title: string;
  /** The button, and the dialog's title when adding. */
  addLabel: string;
  /** The dialog's title when editing. */
  editLabel: string;
  empty: string;
  /** The shared schema a line is checked with (the API's own). */
  schema: S;
  fields: FormModalField<z.input<S>>[];
  /** A new line, taxed or not by the Settings' default for its kind. */
  blank: (taxable: boolean) => z.input<S>;
  /** A priced line as the list shows it, with its buttons' names. */
  describe: (line: P, index: number) => { text: ReactNode; editLabel: string; deleteLabel: string };
  /** For a second kind kept in the same list (a flat price among labor): which lines are its own… */
  owns?: (line: unknown) => boolean;
  /** …the list's line from its dialog's values, and back. */
  toLine?: (values: unknown) => unknown;
  fromLine?: (line: unknown) => unknown;
}

interface LineEditorProps<S extends z.ZodType<FieldValues, FieldValues>, P> {
  kind: LineKind<S, P>;
  /** Another kind of line kept in the same list, with its own button and dialog (a flat price). */
  also?: LineKind<z.ZodType<FieldValues, FieldValues>, P>;
  control: QuoteFormControl;
  /** The lines as priced for the preview, in the form's order. */
  priced: P[];
  /** The Settings' tax default for this kind of line. */
  taxable: boolean;
  disabled: boolean;
  /** After a line is added or saved. */
  onSaved?: () => void;
}

/** Materials or Labor: the lines so far, each to edit or delete, and the button (and dialog) to add one. */
export function LineEditor<S extends z.ZodType<FieldValues, FieldValues>, P>({
  kind: main,
  also,
  control,
  priced,
  taxable,
  disabled,
  onSaved,
}: LineEditorProps<S, P>) {
  const headingId = useId();
  const { fields, append, update, remove } = useFieldArray({ control, name: main.name });
  const lines = useWatch({ control, name: main.name });
  const [editing, setEditing] = useState<number | null>(null);
  // The kind whose dialog is open: the main one, or the other one kept in the same list.
  const [kind, setKind] = useState<LineKind<z.ZodType<FieldValues, FieldValues>, P>>(main);
  const [opened, dialog] = useDisclosure(false);
  const kindOf = (line: unknown) => (also?.owns?.(line) ? also : main);
  const open = (index: number | null, chosen = index === null ? main : kindOf(lines[index])) => {
    setKind(chosen as typeof kind);
    setEditing(index);
    dialog.open();
  };
  const current = editing === null ? undefined : lines[editing];
  const initial = current === undefined ? kind.blank(taxable) : kind.fromLine ? kind.fromLine(current) : current;

  return (
    <section aria-labelledby={headingId}>
      <Group justify="space-between" mb={6}>
        <Title order={3} size="h5" id={headingId}>
          {main.title}
        </Title>
        <Group gap={6}>
          {[main, ...(also ? [also] : [])].map((k) => (
            <Button
              key={k.addLabel}
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => open(null, k)}
              disabled={disabled}
            >
              {k.addLabel}
            </Button>
          ))}
        </Group>
      </Group>
      {priced.length === 0 ? (
        <Text size="sm" c="dimmed">
          {main.empty}
        </Text>
      ) : (
        <Stack gap={4}>
          {priced.map((line, i) => {
            const { text, editLabel, deleteLabel } = kindOf(lines[i]).describe(line, i);
            return (
              <Group key={fields[i]?.id ?? i} justify="space-between" wrap="nowrap">
                <Text size="sm">{text}</Text>
                <Group gap={2} wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={editLabel} onClick={() => open(i)} disabled={disabled}>
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red.9"
                    aria-label={deleteLabel}
                    onClick={() => remove(i)}
                    disabled={disabled}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
            );
          })}
        </Stack>
      )}
      <FormModal
        opened={opened}
        title={editing === null ? kind.addLabel : kind.editLabel}
        submitLabel={editing === null ? 'Add' : 'Save'}
        schema={kind.schema as S}
        initialValues={initial as DefaultValues<z.input<S>>}
        fields={kind.fields as FormModalField<z.input<S>>[]}
        onSubmit={(line) => {
          // Materials and labor lines are the form's lists of the schema's outputs.
          const value = (kind.toLine ? kind.toLine(line) : line) as FieldArray<QuoteFormInput, LineKind<S, P>['name']>;
          if (editing === null) append(value);
          else update(editing, value);
          onSaved?.();
        }}
        onClose={dialog.close}
      />
    </section>
  );
}
