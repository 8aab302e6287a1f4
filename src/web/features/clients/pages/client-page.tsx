import {
  Anchor,
  Button,
  Grid,
  Group,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { messages } from '#shared/messages';
import { formatDollars } from '#shared/money';
import { paths } from '#shared/paths';
import { clientUpdateInput, type ClientDetail } from '#shared/schemas/clients';
import { jobNumberOf } from '#shared/schemas/jobs';
import { QUOTE_STATUS_LABELS } from '#shared/schemas/quotes';
import { QUOTE_STATE_LABELS } from '#shared/statuses';
import { formatDate } from '../../../components/date-text';
import { PageHeader } from '../../../components/page-header';
import { ScrollTable } from '../../../components/scroll-table';
import { SectionCard } from '../../../components/section-card';
import { StatusText } from '../../../components/status-text';
import { addressLine, mapHref, telHref } from '../../../lib/links';
import { toast } from '../../../lib/toast';
import { useClient, useUpdateClient } from '../api/clients';
import { TheirPage } from '../components/their-page';

function EditClient({ client, opened, onClose }: { client: ClientDetail; opened: boolean; onClose: () => void }) {
  const update = useUpdateClient(client._id);
  const [values, setValues] = useState({ name: client.name, phone: client.phone, notes: client.notes });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = () => {
    const parsed = clientUpdateInput.safeParse(values);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    update.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Client saved');
        onClose();
      },
      onError: () => toast.error('The client could not be saved'),
    });
  };
  const set = (key: keyof typeof values) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Edit client" centered radius="lg">
      <Stack>
        <TextInput
          label="Name"
          withAsterisk
          value={values.name}
          onChange={set('name')}
          error={errors.name}
          data-autofocus
        />
        <TextInput label="Phone" type="tel" value={values.phone} onChange={set('phone')} error={errors.phone} />
        <Textarea
          label="Notes"
          description="For the office: gate codes, pets, how they like to be reached"
          autosize
          minRows={3}
          value={values.notes}
          onChange={set('notes')}
          error={errors.notes}
        />
        <Text size="xs" c="dimmed">
          {client.email
            ? `The e-mail (${client.email}) identifies the client: their requests are matched by it.`
            : 'Without an e-mail the client is found by their phone, and nothing is e-mailed to them.'}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button onClick={save} loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function HistoryTable({
  label,
  headers,
  rows,
  empty,
}: {
  label: string;
  headers: string[];
  rows: ReactNode[][];
  empty: string;
}) {
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <ScrollTable label={label} minWidth={520}>
      <Table verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((cells, i) => (
            <Table.Tr key={i}>
              {cells.map((cell, j) => (
                <Table.Td key={j}>{cell}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/** One client: contact, properties, notes, what they owe, and every invoice, request, quote and job of theirs. */
export default function ClientPage() {
  const { clientId = '' } = useParams();
  const client = useClient(clientId);
  const [editing, editDialog] = useDisclosure(false);
  const [seeing, theirPage] = useDisclosure(false);
  const back = { to: paths.admin.clients, label: 'Back to Clients' };
  if (client.isPending)
    return (
      <>
        <PageHeader title="Client" back={back} />
        <Skeleton h={240} radius="lg" />
      </>
    );
  if (client.isError)
    return (
      <>
        <PageHeader title="Client" back={back} />
        <Paper withBorder radius="lg" p="lg" role="alert">
          <Text fw={600}>This client could not be found.</Text>
        </Paper>
      </>
    );
  const c = client.data;
  const { requests, quotes, jobs, invoices, balance } = c.history;
  return (
    <>
      <PageHeader
        title={c.name}
        back={back}
        actions={
          <Group gap="xs">
            <Button variant="default" leftSection={<IconPencil size={18} aria-hidden />} onClick={editDialog.open}>
              Edit client
            </Button>
            <Button variant="default" onClick={theirPage.open}>
              See their page
            </Button>
          </Group>
        }
      />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <SectionCard title="Contact">
              <Stack gap={6}>
                {c.email ? (
                  <Anchor href={`mailto:${c.email}`} style={{ overflowWrap: 'anywhere' }}>
                    {c.email}
                  </Anchor>
                ) : (
                  <Text c="dimmed">{messages.noEmail}</Text>
                )}
                {c.phone ? <Anchor href={telHref(c.phone)}>{c.phone}</Anchor> : <Text c="dimmed">No phone</Text>}
                <Text size="sm" c="dimmed">
                  Client since {formatDate(c.createdAt)}
                </Text>
                {balance > 0 ? (
                  // On a phone the invoices come after the properties: what is owed is said at the top.
                  <Text hiddenFrom="md" fw={700} c="red.9">
                    Balance owed: {formatDollars(balance)}
                  </Text>
                ) : null}
              </Stack>
            </SectionCard>
            <SectionCard title="Properties">
              <Stack gap={6}>
                {c.addresses.map((a) => (
                  <Anchor key={a._id} href={mapHref(a)} target="_blank" rel="noreferrer">
                    {addressLine(a)}
                  </Anchor>
                ))}
              </Stack>
            </SectionCard>
            {c.billingAddress ? (
              <SectionCard title="Billing address">
                <Text>{addressLine(c.billingAddress)}</Text>
              </SectionCard>
            ) : null}
            <SectionCard title="Notes">
              <Text style={{ whiteSpace: 'pre-wrap' }} c={c.notes ? undefined : 'dimmed'}>
                {c.notes || 'No notes yet.'}
              </Text>
            </SectionCard>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <SectionCard title="Invoices">
              <Text fw={700} size="lg" mb="xs" c={balance > 0 ? 'red.9' : undefined} data-testid="client-balance">
                {balance > 0 ? `Balance owed: ${formatDollars(balance)}` : 'Nothing owed'}
              </Text>
              <HistoryTable
                label="Invoices"
                headers={['Invoice', 'Status', 'Total', 'Balance', 'Due']}
                empty="No invoices yet."
                rows={invoices.map((i) => [
                  <Anchor key="l" component={Link} to={paths.admin.invoice(i._id)} ff="monospace" fw={600}>
                    {i.number ?? (i.kind === 'deposit' ? 'Deposit draft' : 'Draft')}
                  </Anchor>,
                  <StatusText key="s" status={i.status} size="sm" />,
                  formatDollars(i.total),
                  formatDollars(i.balance),
                  i.dueDate ? formatDate(i.dueDate) : '—',
                ])}
              />
            </SectionCard>
            <SectionCard title="Requests">
              <HistoryTable
                label="Requests"
                headers={['Request', 'Status', 'Address', 'Received']}
                empty="No requests."
                rows={requests.map((r) => [
                  <Anchor key="l" component={Link} to={paths.admin.quoteRequest(r._id)} ff="monospace" fw={600}>
                    {r.quoteNumber}
                  </Anchor>,
                  <Stack key="s" gap={0}>
                    <StatusText status={r.status} size="sm" />
                    {r.quoteState ? (
                      <Text size="xs" c="dimmed">
                        Quote: {QUOTE_STATE_LABELS[r.quoteState]}
                      </Text>
                    ) : null}
                  </Stack>,
                  r.address,
                  formatDate(r.createdAt),
                ])}
              />
            </SectionCard>
            <SectionCard title="Quotes">
              <HistoryTable
                label="Quotes"
                headers={['Quote', 'Project', 'Status', 'Total', 'Sent']}
                empty="No quotes sent yet."
                rows={quotes.map((q) => [
                  <Anchor
                    key="l"
                    component={Link}
                    to={paths.admin.quoteRequest(q.quoteRequestId)}
                    ff="monospace"
                    fw={600}
                  >
                    {q.quoteId}
                  </Anchor>,
                  q.projectName,
                  q.current ? QUOTE_STATUS_LABELS[q.status] : 'Replaced by a newer version',
                  formatDollars(q.total),
                  formatDate(q.quoteDate),
                ])}
              />
            </SectionCard>
            <SectionCard title="Jobs">
              <HistoryTable
                label="Jobs"
                headers={['Job', 'Status', 'Created']}
                empty="No jobs yet."
                rows={jobs.map((j) => [
                  <Anchor key="l" component={Link} to={paths.admin.job(j._id)} ff="monospace" fw={600}>
                    {jobNumberOf(j._id)}
                  </Anchor>,
                  <StatusText key="s" status={j.status} size="sm" />,
                  formatDate(j.createdAt),
                ])}
              />
            </SectionCard>
          </Stack>
        </Grid.Col>
      </Grid>
      {editing ? <EditClient client={c} opened={editing} onClose={editDialog.close} /> : null}
      {seeing ? <TheirPage clientId={c._id} onClose={theirPage.close} /> : null}
    </>
  );
}
