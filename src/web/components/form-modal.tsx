import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import { useLayoutEffect } from 'react';
import { Controller, useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import type { z } from 'zod';

export type FormModalField<T> =
  | { name: Path<T>; label: string; type: 'text'; optional?: boolean; placeholder?: string }
  | { name: Path<T>; label: string; type: 'date' }
  | { name: Path<T>; label: string; type: 'number'; step?: number; prefix?: string; decimalScale?: number }
  | { name: Path<T>; label: string; type: 'select' | 'multiselect'; options: string[] }
  | { name: Path<T>; label: string; type: 'checkbox'; description?: string };

interface FormModalProps<S extends z.ZodType<FieldValues, FieldValues>> {
  opened: boolean;
  title: string;
  submitLabel: string;
  schema: S;
  fields: FormModalField<z.input<S>>[];
  initialValues: DefaultValues<z.input<S>>;
  onSubmit: (values: z.output<S>) => void | Promise<void>;
  onClose: () => void;
  loading?: boolean;
  /** Close after a successful submit (the default). */
  closeOnSubmit?: boolean;
}

/**
 * The spec's generic modal form: text, number, select, multi-select and checkbox fields, required unless marked,
 * validated by a shared zod schema; Cancel and submit; resets after submit and closes by default.
 */
export function FormModal<S extends z.ZodType<FieldValues, FieldValues>>({
  opened,
  title,
  submitLabel,
  schema,
  fields,
  initialValues,
  onSubmit,
  onClose,
  loading,
  closeOnSubmit = true,
}: FormModalProps<S>) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema as never) as never,
    defaultValues: initialValues,
  });
  const busy = loading || form.formState.isSubmitting;
  // Each opening starts from the values given (a line to edit, or a blank one to add): in the commit
  // that opens it, so that nothing typed at once is wiped by a reset that came after (a passive
  // effect may run only when the first keystroke is handled, session 25's flake).
  useLayoutEffect(() => {
    if (opened) form.reset(initialValues);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the dialog opens
  }, [opened]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      // Refused (more than the balance…): the server's message here, the dialog open to correct it.
      form.setError('root.server', { message: error instanceof Error ? error.message : 'This could not be saved' });
      return;
    }
    form.reset(initialValues);
    if (closeOnSubmit) onClose();
  });

  const close = () => {
    form.reset(initialValues);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={busy ? () => {} : close} title={title} centered radius="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          {fields.map((field) => (
            <Controller
              key={field.name}
              control={form.control}
              name={field.name}
              render={({ field: f, fieldState }) => {
                const common = {
                  label: field.label,
                  withAsterisk: true,
                  error: fieldState.error?.message,
                  // Locked only while saving: a refused field must stay focusable during the check.
                  disabled: loading,
                };
                if (field.type === 'number') {
                  return (
                    <NumberInput
                      {...common}
                      // Emptied, the field stays empty (null, "must be a number"): undefined would bring
                      // back the form's first value (a quantity's 1) under the typing.
                      value={f.value === null || f.value === undefined ? '' : (f.value as number)}
                      onChange={(v) => f.onChange(v === '' ? null : Number(v))}
                      onBlur={f.onBlur}
                      min={0}
                      step={field.step ?? 1}
                      prefix={field.prefix}
                      decimalScale={field.decimalScale ?? 2}
                      thousandSeparator=","
                    />
                  );
                }
                if (field.type === 'checkbox') {
                  return (
                    <Checkbox
                      label={field.label}
                      description={field.description}
                      checked={Boolean(f.value)}
                      onChange={(e) => f.onChange(e.currentTarget.checked)}
                      onBlur={f.onBlur}
                      disabled={loading}
                      error={fieldState.error?.message}
                    />
                  );
                }
                if (field.type === 'select') {
                  return (
                    <Select
                      {...common}
                      placeholder={`Select ${field.label}`}
                      data={field.options}
                      value={(f.value as string) ?? null}
                      onChange={f.onChange}
                    />
                  );
                }
                if (field.type === 'multiselect') {
                  return (
                    <MultiSelect
                      {...common}
                      placeholder={`Select ${field.label}`}
                      data={field.options}
                      value={(f.value as string[]) ?? []}
                      onChange={f.onChange}
                    />
                  );
                }
                if (field.type === 'date') {
                  return (
                    <TextInput
                      {...common}
                      type="date"
                      value={(f.value as string) ?? ''}
                      onChange={f.onChange}
                      onBlur={f.onBlur}
                    />
                  );
                }
                return (
                  <TextInput
                    {...common}
                    withAsterisk={!(field.type === 'text' && field.optional)}
                    placeholder={field.type === 'text' ? field.placeholder : undefined}
                    value={(f.value as string) ?? ''}
                    onChange={f.onChange}
                    onBlur={f.onBlur}
                    data-autofocus
                  />
                );
              }}
            />
          ))}
          {form.formState.errors.root?.server ? (
            <Alert color="red" role="alert">
              {form.formState.errors.root.server.message}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
