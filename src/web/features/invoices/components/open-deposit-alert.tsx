import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { JobStatus } from '#shared/constants';
import { formatDollars } from '#shared/money';
import { paths } from '#shared/paths';
import { openDepositAdvice } from '#shared/schemas/invoices';
import { isOpenJob } from '#shared/statuses';
import { useJobInvoice } from '../api/invoices';

/**
 * A completed or cancelled job whose deposit invoice is still unpaid: the office sees it at the top of
 * the job (the owner is e-mailed too), so the client is neither billed twice nor chased for nothing.
 */
export function OpenDepositAlert({ jobId, status }: { jobId: string; status: JobStatus }) {
  const invoice = useJobInvoice(jobId);
  const deposit = invoice.data?.deposit;
  if (isOpenJob(status)) return null;
  if (!deposit || deposit.status === 'Draft' || deposit.status === 'Void' || deposit.balance <= 0) return null;
  return (
    <Alert color="orange" title={`Deposit ${deposit.number ?? ''} is still open`} mb="md" role="status">
      <Text size="sm">
        This job is {status.toLowerCase()} and its deposit invoice has {formatDollars(deposit.balance)} unpaid.{' '}
        {openDepositAdvice(status)}{' '}
        <Anchor component={Link} to={paths.admin.invoice(deposit._id)} fw={600}>
          Open the deposit invoice
        </Anchor>
      </Text>
    </Alert>
  );
}
