import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, NumberInput, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { messages } from '#shared/messages';
import { formatDollars } from '#shared/money';
import { paths } from '#shared/paths';
import { invoiceDraftInput, type InvoiceView } from '#shared/schemas/invoices';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SectionCard } from '../../../components/section-card';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useInvoiceChanges } from '../api/invoices';
import { draftValuesOf, liveFigures, type DraftFormInput, type DraftFormOutput } from '../lib/draft-form';
import { DraftLines } from './draft-lines';
import { InvoiceTotalsRows } from './invoice-lines';
import { UnpaidDeposit } from './unpaid-deposit';

/** A draft's lines, days to pay, PO number and notes, edited in place; Save keeps them, Send saves and sends in one press. */
export function DraftEditor({ invoice }: { invoice: InvoiceView }) {
  const { update, send, remove } = useInvoiceChanges();
  const navigate = useNavigate();
  const form = useForm<DraftFormInput, unknown, DraftFormOutput>({
    resolver: zodResolver(invoiceDraftInput),
    defaultValues: draftValuesOf(invoice),
  });
  const lines = useFieldArray({ control: form.control, name: 'lines' });
  const [confirmSend, setConfirmSend] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const figures = liveFigures(invoice, useWatch({ control: form.control, name: 'lines' }));
  const { isDirty: dirty, errors } = form.formState;
  const error = errors.root?.server?.message ?? errors.lines?.root?.message ?? errors.lines?.message;

  const save = async (body: DraftFormOutput) => {
    try {
      await update.mutateAsync({ id: invoice._id, body });
      // What was saved is the draft now: Save has nothing more to keep until the next change.
      form.reset(form.getValues());
      return true;
    } catch (e) {
      form.setError('root.server', { message: (e as Error).message });
      return false;
    }
  };

  // What is on the screen is what goes: unsaved changes are saved first, in the same press.
  const sendNow = async (body: DraftFormOutput) => {
    if (dirty && !(await save(body))) {
      setConfirmSend(false);
      return;
    }
    send.mutate(invoice._id, {
      onSuccess: (sent) => {
        setConfirmSend(false);
        toast.success(
          sent.clientEmail
            ? `Invoice ${sent.number} sent to ${sent.clientEmail}`
            : `Invoice ${sent.number} saved as sent; not e-mailed (no e-mail on file)`,
        );
      },
      onError: (e) => toast.error(e.message),
    });
  };

  return (
    <Stack gap="md">
      <SectionCard title="Lines">
        <Stack gap="sm">
          <DraftLines control={form.control} fields={lines.fields} onRemove={lines.remove} />
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() =>
                lines.append(
                  { description: '', quantity: 1, unitPrice: 0, taxable: siteConfig().materialsTaxable },
                  { shouldFocus: false },
                )
              }
            >
              Add a line
            </Button>
          </Group>
          <InvoiceTotalsRows invoice={figures} />
          <UnpaidDeposit invoice={invoice} />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <Controller
              control={form.control}
              name="dueDays"
              render={({ field, fieldState }) => (
                <NumberInput
                  label="Days to pay"
                  description="The due date is this many days after sending"
                  min={0}
                  max={365}
                  allowDecimal={false}
                  {...field}
                  error={fieldState.error?.message}
                />
              )}
            />
            <Controller
              control={form.control}
              name="poNumber"
              render={({ field, fieldState }) => (
                <TextInput
                  label="PO number"
                  description="The client's purchase order, if any"
                  maxLength={40}
                  {...field}
                  value={field.value ?? ''}
                  error={fieldState.error?.message}
                />
              )}
            />
            <Controller
              control={form.control}
              name="notes"
              render={({ field, fieldState }) => (
                <Textarea
                  label="Notes on the invoice"
                  description="The client reads them under the lines"
                  autosize
                  minRows={2}
                  maxLength={2000}
                  {...field}
                  error={fieldState.error?.message}
                />
              )}
            />
          </SimpleGrid>
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Group justify="space-between">
            <Button variant="subtle" color="red" onClick={() => setConfirmDelete(true)}>
              Delete draft
            </Button>
            <Group gap="sm">
              <Button
                variant="default"
                disabled={!dirty}
                loading={update.isPending}
                onClick={() =>
                  void form.handleSubmit(async (body) => {
                    if (await save(body)) toast.success('Draft saved');
                  })()
                }
              >
                Save draft
              </Button>
              <Button onClick={() => void form.handleSubmit(() => setConfirmSend(true))()}>Send invoice</Button>
            </Group>
          </Group>
        </Stack>
      </SectionCard>
      <ConfirmDialog
        opened={confirmSend}
        onClose={() => setConfirmSend(false)}
        title="Send this invoice?"
        confirmLabel="Send invoice"
        loading={update.isPending || send.isPending}
        onConfirm={() => void form.handleSubmit(sendNow)()}
      >
        <Stack gap="xs">
          {invoice.clientEmail ? (
            <Text size="sm">
              It gets its number and goes to {invoice.clientEmail} with its PDF and a link
              {dirty ? ', with the changes on the screen' : ''}. After that it no longer changes.
            </Text>
          ) : (
            <Text size="sm" role="note">
              It gets its number{dirty ? ', with the changes on the screen' : ''}, and after that it no longer changes.{' '}
              <strong>{messages.noEmail}</strong>: give them the PDF or read it to them by phone.
            </Text>
          )}
          <Text size="sm" fw={700}>
            Balance due: {formatDollars(figures.balance)}
          </Text>
          <UnpaidDeposit invoice={invoice} />
        </Stack>
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title="Delete this draft?"
        confirmLabel="Delete draft"
        confirmColor="red.9"
        loading={remove.isPending}
        onConfirm={() =>
          remove.mutate(invoice._id, {
            onSuccess: () => {
              toast.success('Draft deleted');
              void navigate(invoice.jobId ? paths.admin.job(invoice.jobId) : paths.admin.invoices);
            },
            onError: (e) => toast.error(e.message),
          })
        }
      >
        <Text size="sm">The job can be invoiced again afterwards.</Text>
      </ConfirmDialog>
    </Stack>
  );
}
