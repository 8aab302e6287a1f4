import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { billToLines } from '#shared/bill-to';
import { formatLongDate } from '#shared/dates';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import type { InvoiceView } from '#shared/schemas/invoices';
import { jobNumberOf } from '#shared/schemas/jobs';
import { ClientLink } from '../../../components/client-link';
import { SectionCard } from '../../../components/section-card';

/** Who the invoice is for, the job it bills, and (once sent) when it was sent and is due: above every screen. */
export function BillTo({ invoice: i }: { invoice: InvoiceView }) {
  const b = billToLines(i);
  return (
    <SectionCard title="Bill to">
      {b.company ? (
        <Text fw={700} data-testid="invoice-company" style={{ overflowWrap: 'anywhere' }}>
          {b.company}
        </Text>
      ) : null}
      <Text fw={b.company ? undefined : 600}>
        <ClientLink clientId={i.clientId} name={i.clientName} />
      </Text>
      <Text size="sm" c={i.clientEmail ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
        {i.clientEmail || messages.noEmail}
      </Text>
      <Text size="sm">{b.mailTo}</Text>
      {b.service ? (
        <Text size="sm" c="dimmed">
          Service address: {b.service}
        </Text>
      ) : null}
      {i.poNumber ? (
        <Text size="sm" fw={600} data-testid="invoice-po">
          PO No.: {i.poNumber}
        </Text>
      ) : null}
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
  );
}
