import { Button, Group, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { formatDollars } from '#shared/money';
import { paths } from '#shared/paths';
import { SectionCard } from '../../../components/section-card';
import { StatusText } from '../../../components/status-text';
import { toast } from '../../../lib/toast';
import { useInvoiceChanges, useJobInvoice } from '../api/invoices';

/** The job page's invoice card: the job's invoice, or "Create invoice" once the job is completed. */
export function JobInvoice({ jobId, completed }: { jobId: string; completed: boolean }) {
  const invoice = useJobInvoice(jobId);
  const { create } = useInvoiceChanges();
  const navigate = useNavigate();
  const i = invoice.data?.invoice;
  const deposit = invoice.data?.deposit;
  return (
    <SectionCard title="Invoice">
      {deposit ? (
        <Group justify="space-between" mb="sm">
          <Text size="sm">
            Deposit {deposit.number} · <StatusText status={deposit.status} size="sm" /> · {formatDollars(deposit.total)}
            {deposit.status === 'Void'
              ? ''
              : deposit.balance > 0
                ? `: ${formatDollars(deposit.balance)} not paid yet. The final invoice takes the whole deposit off; the client pays it on the deposit invoice.`
                : ': paid. The final invoice takes it off.'}
          </Text>
          <Button component={Link} to={paths.admin.invoice(deposit._id)} variant="subtle" size="xs">
            Open deposit invoice
          </Button>
        </Group>
      ) : null}
      {i ? (
        <Group justify="space-between">
          <Text size="sm">
            {i.number ?? 'Draft'} · <StatusText status={i.status} size="sm" /> · balance {formatDollars(i.balance)}
          </Text>
          <Button component={Link} to={paths.admin.invoice(i._id)} variant="light" size="xs">
            Open invoice
          </Button>
        </Group>
      ) : completed ? (
        <Group justify="space-between">
          <Text size="sm">Bill the sold lines with the crew’s extra materials and time.</Text>
          <Button
            size="xs"
            loading={create.isPending}
            onClick={() =>
              create.mutate(jobId, {
                onSuccess: (created) => void navigate(paths.admin.invoice(created._id)),
                onError: (e) => toast.error(e.message),
              })
            }
          >
            Create invoice
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          The job is invoiced once it is completed.
        </Text>
      )}
    </SectionCard>
  );
}
