import { Alert, Group, Loader, Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { paths } from '#shared/paths';
import { PageHeader } from '../../../components/page-header';
import { StatusPill } from '../../../components/status-text';
import { useInvoice } from '../api/invoices';
import { BillTo } from '../components/bill-to';
import { DraftEditor } from '../components/draft-editor';
import { SentInvoice } from '../components/sent-invoice';

/** An invoice in the back office: a draft is edited and sent (DraftEditor); once sent, it is paid or voided (SentInvoice). */
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
          <BillTo invoice={i} />
          {i.status === 'Draft' ? <DraftEditor key={i._id} invoice={i} /> : <SentInvoice invoice={i} />}
        </Stack>
      )}
    </>
  );
}
