import { Alert, Button, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useParams, useSearchParams } from 'react-router';
import { formatLongDate } from '#shared/dates';
import { HOW_TO_PAY_HEADING } from '#shared/how-to-pay';
import { billToLines } from '#shared/bill-to';
import { clientInvoiceStatusOf, type ClientInvoiceView } from '#shared/schemas/invoices';
import { StatusPill } from '../../../components/status-text';
import { usePageTitle } from '../../../lib/use-page-title';
import { useClientInvoice } from '../api/invoices';
import { InvoiceLines } from '../components/invoice-lines';
import { PayOnline } from '../components/pay-online';

/** Who the invoice is for: the company, the person, where the bill goes, and the property when it goes elsewhere. */
function BillToBlock({ invoice }: { invoice: ClientInvoiceView }) {
  const b = billToLines(invoice);
  return (
    <Stack gap={0} component="section" aria-labelledby="bill-to" style={{ overflowWrap: 'anywhere' }}>
      <Text id="bill-to" size="xs" tt="uppercase" fw={700} c="dimmed">
        Bill to
      </Text>
      {b.company ? <Text fw={700}>{b.company}</Text> : null}
      <Text size="sm">{b.name}</Text>
      <Text size="sm">{b.mailTo}</Text>
      {b.service ? (
        <Text size="sm" c="dimmed">
          Service address: {b.service}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The client's invoice from the e-mailed link, on a phone first: what is owed, by when, and the PDF. */
export default function ClientInvoicePage() {
  const id = useParams().invoiceId ?? '';
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const invoice = useClientInvoice(id, token);
  const i = invoice.data;
  const title = i ? `${i.kind === 'deposit' ? 'Deposit invoice' : 'Invoice'} ${i.number}` : 'Your invoice';
  usePageTitle(title);
  return (
    <Container size="sm" py="xl">
      {!i ? (
        invoice.isError ? (
          <Alert color="red" title="This invoice cannot be opened">
            {invoice.error.message}
          </Alert>
        ) : (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading your invoice" />
          </Group>
        )
      ) : (
        <Stack gap="md">
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={1} size="h2">
                {title}
              </Title>
              {i.poNumber ? (
                <Text c="dimmed" size="sm">
                  PO No.: {i.poNumber}
                </Text>
              ) : null}
            </div>
            <StatusPill status={i.status} label={clientInvoiceStatusOf(i.status)} />
          </Group>
          <BillToBlock invoice={i} />
          {i.issueDate && i.dueDate ? (
            <Text size="sm">
              Sent {formatLongDate(i.issueDate)} · due {formatLongDate(i.dueDate)}
            </Text>
          ) : null}
          <Paper withBorder radius="lg" p="md">
            <InvoiceLines invoice={i} />
          </Paper>
          {i.notes ? <Text size="sm">{i.notes}</Text> : null}
          <PayOnline id={id} token={token} kind={i.kind} balance={i.balance} checkout={search.get('checkout')} />
          {i.howToPay.length > 0 ? (
            <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="how-to-pay">
              <Title order={2} size="h4" id="how-to-pay" mb="xs">
                {HOW_TO_PAY_HEADING}
              </Title>
              <Stack gap="xs" component="dl" m={0}>
                {i.howToPay.map((way) => (
                  <div key={way.label}>
                    <Text component="dt" size="sm" fw={700}>
                      {way.label}
                    </Text>
                    <Text component="dd" size="sm" m={0} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                      {way.text}
                    </Text>
                  </div>
                ))}
              </Stack>
            </Paper>
          ) : null}
          {i.pdfUrl ? (
            <Button component="a" href={i.pdfUrl} leftSection={<IconDownload size={18} />} size="md">
              Download the PDF
            </Button>
          ) : null}
        </Stack>
      )}
    </Container>
  );
}
