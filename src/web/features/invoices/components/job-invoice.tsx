import { Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { formatDollars } from '#shared/money';
import { paths } from '#shared/paths';
import { formatDate } from '../../../components/date-text';
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
  const recurring = invoice.data?.recurring ?? [];
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
          {recurring.length
            ? 'Its repeating visits are invoiced below; anything else is invoiced once the job is completed.'
            : 'The job is invoiced once it is completed.'}
        </Text>
      )}
      {recurring.length ? (
        <Stack gap={4} mt="sm" component="section" aria-label="Invoices of the repeating visits">
          <Text size="sm" fw={600}>
            Repeating visits’ invoices
          </Text>
          <List size="sm" spacing={4} listStyleType="none" ml={0}>
            {recurring.map((r) => (
              <List.Item key={r._id}>
                <Anchor component={Link} to={paths.admin.invoice(r._id)} fw={600}>
                  {r.number}
                </Anchor>{' '}
                · {formatDate(r.issueDate)} · <StatusText status={r.status} size="sm" /> · {formatDollars(r.total)}
                {r.balance > 0 && r.balance !== r.total ? `, ${formatDollars(r.balance)} still due` : ''}
              </List.Item>
            ))}
          </List>
        </Stack>
      ) : null}
    </SectionCard>
  );
}
