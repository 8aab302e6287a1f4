import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { PAYMENT_METHODS } from '#shared/constants';
import { formatLongDate, todayIn } from '#shared/dates';
import { formatDollars } from '#shared/money';
import { paymentInput, type InvoiceView } from '#shared/schemas/invoices';
import { FormModal } from '../../../components/form-modal';
import { ReasonDialog } from '../../../components/reason-dialog';
import { SectionCard } from '../../../components/section-card';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useInvoiceChanges, useRefund } from '../api/invoices';
import { refundInput } from '#shared/schemas/invoices';
import { InvoiceLines } from './invoice-lines';

/** A sent invoice: its lines and totals, payments, and what the office does next. */
export function SentInvoice({ invoice }: { invoice: InvoiceView }) {
  const { pay, void: voidIt } = useInvoiceChanges();
  const [paying, setPaying] = useState(false);
  const [voiding, setVoiding] = useState(false);
  const refund = useRefund(invoice._id);
  const [refunding, setRefunding] = useState<InvoiceView['payments'][number] | null>(null);
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
              <Group component="li" key={p._id} gap="xs" wrap="wrap" justify="space-between">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {formatLongDate(p.paidOn)} · {formatDollars(p.amount)} · {p.method}
                  {p.reference ? ` ${p.reference}` : ''}
                  {p.fee !== null ? ` · Stripe fee ${formatDollars(p.fee)}` : ''}
                  {p.note ? ` · ${p.note}` : ''}
                </Text>
                {p.refundable > 0 && invoice.status !== 'Void' ? (
                  <Button size="compact-xs" variant="subtle" onClick={() => setRefunding(p)}>
                    Refund
                  </Button>
                ) : null}
              </Group>
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
        // A refusal (more than the balance) is shown in the dialog, which stays open.
        onSubmit={async (body) => {
          const paid = await pay.mutateAsync({ id: invoice._id, body });
          toast.success(
            `${paid.status === 'Paid' ? `Invoice ${paid.number} is paid` : 'Payment recorded'}; ${
              paid.clientEmail ? 'receipt e-mailed' : 'no receipt e-mailed (no e-mail on file)'
            }`,
          );
        }}
      />
      <FormModal
        opened={refunding !== null}
        title="Refund a payment"
        submitLabel="Refund"
        schema={refundInput}
        fields={[
          { name: 'amount', label: 'Amount to give back', type: 'number', prefix: '$', decimalScale: 2 },
          { name: 'note', label: 'Note', type: 'text', optional: true },
        ]}
        initialValues={{ paymentId: refunding?._id ?? '', amount: refunding?.refundable ?? 0, note: '' }}
        loading={refund.isPending}
        onClose={() => setRefunding(null)}
        onSubmit={async (body) => {
          await refund.mutateAsync({ ...body, paymentId: refunding!._id });
          toast.success(
            refunding?.online ? 'Refunded through Stripe; receipt e-mailed' : 'Refund recorded; receipt e-mailed',
          );
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
