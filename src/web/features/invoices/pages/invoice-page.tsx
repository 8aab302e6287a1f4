import { Alert, Anchor, Button, Group, Loader, NumberInput, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PAYMENT_METHODS } from '../../../../shared/constants';
import { formatLongDate, todayIn } from '../../../../shared/dates';
import { formatDollars, invoiceTotals, toCents, toDollars } from '../../../../shared/money';
import { paths } from '../../../../shared/paths';
import {
  invoiceDraftInput,
  paymentInput,
  type InvoiceLineInput,
  type InvoiceView,
} from '../../../../shared/schemas/invoices';
import { jobNumberOf } from '../../../../shared/schemas/jobs';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormModal } from '../../../components/form-modal';
import { PageHeader } from '../../../components/page-header';
import { ReasonDialog } from '../../../components/reason-dialog';
import { SectionCard } from '../../../components/section-card';
import { StatusPill } from '../../../components/status-text';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useInvoice, useInvoiceChanges } from '../api/invoices';
import { DraftLines, type EditLine } from '../components/draft-lines';
import { InvoiceLines, InvoiceTotalsRows } from '../components/invoice-lines';

/** The deposit this invoice takes off, while the client has not paid all of it (the office should know). */
function UnpaidDeposit({ invoice }: { invoice: InvoiceView }) {
  const deposit = invoice.creditedDeposit;
  if (!deposit || deposit.balance <= 0) return null;
  return (
    <Paper withBorder radius="md" p="sm" style={{ borderColor: 'var(--mantine-color-accent-7)', borderWidth: 2 }}>
      <Text size="sm" fw={700}>
        Deposit {deposit.number} is not paid yet
      </Text>
      <Text size="sm">
        {formatDollars(deposit.balance)} of it is still due. This invoice takes the whole deposit (
        {formatDollars(deposit.total)}) off, so the client pays that part on the deposit invoice, not twice.
      </Text>
    </Paper>
  );
}

/** The draft's figures as it is edited: what Send will number and e-mail. */
function liveFigures(invoice: InvoiceView, lines: EditLine[]) {
  const totals = invoiceTotals(
    lines.map((l) => ({
      unitPriceCents: toCents(Number(l.unitPrice) || 0),
      quantity: Number(l.quantity) || 0,
      taxable: l.taxable,
    })),
    invoice.taxRateBasisPoints,
    toCents(invoice.credit),
  );
  return {
    subtotal: toDollars(totals.subtotalCents),
    taxable: toDollars(totals.taxableCents),
    tax: toDollars(totals.taxCents),
    total: toDollars(totals.totalCents),
    taxRateBasisPoints: invoice.taxRateBasisPoints,
    credit: toDollars(totals.creditCents),
    creditedNumber: invoice.creditedNumber,
    paid: 0,
    balance: toDollars(totals.dueCents),
  };
}

/** A draft's lines, days to pay and notes, edited in place; Save keeps them, Send saves and sends in one press. */
function DraftEditor({ invoice }: { invoice: InvoiceView }) {
  const { update, send, remove } = useInvoiceChanges();
  const navigate = useNavigate();
  const [lines, setLines] = useState<EditLine[]>(() =>
    invoice.lines.map((l) => ({
      key: crypto.randomUUID(),
      description: l.description,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      taxable: l.taxable,
    })),
  );
  const [dueDays, setDueDays] = useState<number | string>(invoice.dueDays);
  const [notes, setNotes] = useState(invoice.notes);
  const [error, setError] = useState<string>();
  const [confirmSend, setConfirmSend] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const body = () => ({
    lines: lines.map((l): InvoiceLineInput => ({
      description: l.description,
      quantity: Number(l.quantity),
      unitPrice: Number(l.unitPrice),
      taxable: l.taxable,
    })),
    dueDays: Number(dueDays),
    notes,
  });
  const dirty =
    JSON.stringify(body()) !==
    JSON.stringify({
      lines: invoice.lines.map(({ description, quantity, unitPrice, taxable }) => ({
        description,
        quantity,
        unitPrice,
        taxable,
      })),
      dueDays: invoice.dueDays,
      notes: invoice.notes,
    });
  const figures = liveFigures(invoice, lines);
  const set = (key: string, change: Partial<EditLine>) =>
    setLines((all) => all.map((l) => (l.key === key ? { ...l, ...change } : l)));

  const valid = () => {
    const parsed = invoiceDraftInput.safeParse(body());
    setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    return parsed.success ? parsed.data : undefined;
  };
  const save = async () => {
    const parsed = valid();
    if (!parsed) return false;
    try {
      await update.mutateAsync({ id: invoice._id, body: parsed });
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    }
  };

  // What is on the screen is what goes: unsaved changes are saved first, in the same press.
  const sendNow = async () => {
    if (dirty && !(await save())) {
      setConfirmSend(false);
      return;
    }
    send.mutate(invoice._id, {
      onSuccess: (sent) => {
        setConfirmSend(false);
        toast.success(`Invoice ${sent.number} sent to ${sent.clientEmail}`);
      },
      onError: (e) => toast.error(e.message),
    });
  };

  return (
    <Stack gap="md">
      <SectionCard title="Lines">
        <Stack gap="sm">
          <DraftLines
            lines={lines}
            onChange={set}
            onRemove={(key) => setLines((all) => all.filter((x) => x.key !== key))}
          />
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() =>
                setLines((all) => [
                  ...all,
                  {
                    key: crypto.randomUUID(),
                    description: '',
                    quantity: 1,
                    unitPrice: 0,
                    taxable: siteConfig().materialsTaxable,
                  },
                ])
              }
            >
              Add a line
            </Button>
          </Group>
          <InvoiceTotalsRows invoice={figures} />
          <UnpaidDeposit invoice={invoice} />
          <Group align="flex-start" grow>
            <NumberInput
              label="Days to pay"
              description="The due date is this many days after sending"
              value={dueDays}
              min={0}
              max={365}
              allowDecimal={false}
              onChange={setDueDays}
            />
            <Textarea
              label="Notes on the invoice"
              autosize
              minRows={2}
              maxLength={2000}
              value={notes}
              onChange={(e) => setNotes(e.currentTarget.value)}
            />
          </Group>
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
                onClick={() => void save().then((ok) => ok && toast.success('Draft saved'))}
              >
                Save draft
              </Button>
              <Button onClick={() => valid() && setConfirmSend(true)}>Send invoice</Button>
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
        onConfirm={() => void sendNow()}
      >
        <Stack gap="xs">
          <Text size="sm">
            It gets its number and goes to {invoice.clientEmail} with its PDF and a link
            {dirty ? ', with the changes on the screen' : ''}. After that it no longer changes.
          </Text>
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

/** A sent invoice: its lines and totals, payments, and what the office does next. */
function SentInvoice({ invoice }: { invoice: InvoiceView }) {
  const { pay, void: voidIt } = useInvoiceChanges();
  const [paying, setPaying] = useState(false);
  const [voiding, setVoiding] = useState(false);
  const payable = invoice.status !== 'Void' && invoice.status !== 'Paid';
  return (
    <Stack gap="md">
      <SectionCard
        title="Lines"
        action={
          invoice.pdfUrl ? (
            <Button
              component="a"
              href={invoice.pdfUrl}
              target="_blank"
              rel="noreferrer"
              variant="light"
              size="xs"
              leftSection={<IconFileTypePdf size={16} />}
            >
              PDF
            </Button>
          ) : null
        }
      >
        <InvoiceLines invoice={invoice} />
      </SectionCard>
      <SectionCard
        title="Payments"
        action={
          payable ? (
            <Button size="xs" onClick={() => setPaying(true)}>
              Record a payment
            </Button>
          ) : null
        }
      >
        {invoice.payments.length ? (
          <Stack gap={4} component="ul" aria-label="Payments" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {invoice.payments.map((p) => (
              <Text component="li" size="sm" key={p._id}>
                {formatLongDate(p.paidOn)} · {formatDollars(p.amount)} · {p.method}
                {p.reference ? ` ${p.reference}` : ''}
                {p.note ? ` · ${p.note}` : ''}
              </Text>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            No payments yet.
          </Text>
        )}
        <Text fw={700} mt="sm">
          Balance due: {formatDollars(invoice.balance)}
        </Text>
      </SectionCard>
      {invoice.status === 'Void' ? (
        <Alert color="gray" title="Void">
          {invoice.voidReason}
        </Alert>
      ) : invoice.payments.length === 0 ? (
        <Group>
          <Button variant="subtle" color="red" onClick={() => setVoiding(true)}>
            Void invoice
          </Button>
        </Group>
      ) : null}
      <FormModal
        opened={paying}
        title="Record a payment"
        submitLabel="Record payment"
        schema={paymentInput}
        fields={[
          { name: 'amount', label: 'Amount', type: 'number', prefix: '$', decimalScale: 2 },
          { name: 'method', label: 'Method', type: 'select', options: [...PAYMENT_METHODS] },
          { name: 'reference', label: 'Check number or reference', type: 'text', optional: true },
          { name: 'paidOn', label: 'Paid on', type: 'date' },
          { name: 'note', label: 'Note', type: 'text', optional: true },
        ]}
        initialValues={{
          amount: invoice.balance,
          method: 'check',
          reference: '',
          paidOn: todayIn(siteConfig().timeZone),
          note: '',
        }}
        loading={pay.isPending}
        onClose={() => setPaying(false)}
        onSubmit={async (body) => {
          try {
            const paid = await pay.mutateAsync({ id: invoice._id, body });
            toast.success(
              paid.status === 'Paid'
                ? `Invoice ${paid.number} is paid; receipt e-mailed`
                : 'Payment recorded; receipt e-mailed',
            );
          } catch (e) {
            toast.error((e as Error).message);
            throw e;
          }
        }}
      />
      <ReasonDialog
        opened={voiding}
        onClose={() => setVoiding(false)}
        title="Void this invoice?"
        label="Why is it void?"
        description="It keeps its number and shows as Void."
        confirmLabel="Void invoice"
        loading={voidIt.isPending}
        onConfirm={(reason) =>
          voidIt.mutate(
            { id: invoice._id, reason },
            { onSuccess: () => setVoiding(false), onError: (e) => toast.error(e.message) },
          )
        }
      />
    </Stack>
  );
}

export default function InvoicePage() {
  const id = useParams().invoiceId ?? '';
  const invoice = useInvoice(id);
  const i = invoice.data;
  return (
    <>
      <PageHeader
        title={i ? `Invoice ${i.number ?? '(draft)'}` : 'Invoice'}
        badges={i ? <StatusPill status={i.status} /> : null}
        back={{ to: paths.admin.invoices, label: 'Back to Invoices' }}
      />
      {!i ? (
        invoice.isError ? (
          <Alert color="red" title="This invoice could not be loaded">
            {invoice.error.message}
          </Alert>
        ) : (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading the invoice" />
          </Group>
        )
      ) : (
        <Stack gap="md" maw={960}>
          <SectionCard title="Bill to">
            <Text fw={600}>{i.clientName}</Text>
            <Text size="sm">{i.clientEmail}</Text>
            <Text size="sm">{i.address}</Text>
            {i.jobId ? (
              <Text size="sm" mt="xs">
                For{' '}
                <Anchor component={Link} to={paths.admin.job(i.jobId)}>
                  job {jobNumberOf(i.jobId)}
                </Anchor>
              </Text>
            ) : null}
            {i.issueDate && i.dueDate ? (
              <Text size="sm" mt="xs">
                Sent {formatLongDate(i.issueDate)}, due {formatLongDate(i.dueDate)}
              </Text>
            ) : null}
          </SectionCard>
          {i.status === 'Draft' ? <DraftEditor key={i._id} invoice={i} /> : <SentInvoice invoice={i} />}
        </Stack>
      )}
    </>
  );
}
