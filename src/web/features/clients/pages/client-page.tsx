import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { messages } from '#shared/messages';
import { formatMobile } from '#shared/phone';
import { MESSAGE_CHANNELS, type MessageChannel } from '#shared/schemas/texts';
import { formatDollars } from '#shared/money';
import { paths } from '#shared/paths';
import {
  clientUpdateInput,
  serviceAddressInput,
  type ClientDetail,
  type ServiceAddressInput,
} from '#shared/schemas/clients';
import { jobNumberOf } from '#shared/schemas/jobs';
import { QUOTE_STATUS_LABELS } from '#shared/schemas/quotes';
import { QUOTE_STATE_LABELS } from '#shared/statuses';
import { formatDate, formatDayOf } from '../../../components/date-text';
import { siteConfig } from '../../../lib/site-config';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { ScrollTable } from '../../../components/scroll-table';
import { SectionCard } from '../../../components/section-card';
import { StatusText } from '../../../components/status-text';
import { addressLine, mapHref, telHref } from '../../../lib/links';
import { toast } from '../../../lib/toast';
import { ApiError } from '../../../lib/api-client';
import {
  useAddServiceAddress,
  useChangeServiceAddress,
  useClient,
  useRemoveServiceAddress,
  useUpdateClient,
} from '../api/clients';
import { TheirPage } from '../components/their-page';
import { ServicePlanOffers } from '../components/service-plan-offers';
import { ClientTexts } from '../../../components/client-texts';

const ADDRESS_FIELDS: { name: keyof ServiceAddressInput; label: string; placeholder?: string }[] = [
  { name: 'label', label: 'Label', placeholder: 'e.g. Warehouse, Store #12' },
  { name: 'street', label: 'Street' },
  { name: 'city', label: 'City' },
  { name: 'state', label: 'State' },
  { name: 'zip', label: 'Zip' },
];

type ServiceAddress = ClientDetail['addresses'][number];

/**
 * Another place the client has us work (a second shop, a rental), or one of theirs renamed or corrected
 * (`address`), checked by the route's own schema.
 */
function ServiceAddressDialog({
  clientId,
  address,
  onClose,
}: {
  clientId: string;
  address?: ServiceAddress | undefined;
  onClose: () => void;
}) {
  const add = useAddServiceAddress(clientId);
  const change = useChangeServiceAddress(clientId);
  const saving = add.isPending || change.isPending;
  const [values, setValues] = useState<Record<keyof ServiceAddressInput, string>>({
    label: address?.label ?? '',
    street: address?.street ?? '',
    city: address?.city ?? '',
    state: address?.state ?? 'CA',
    zip: address?.zip ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = () => {
    const parsed = serviceAddressInput.safeParse(values);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    const done = {
      onSuccess: () => {
        toast.success(address ? `${parsed.data.label || parsed.data.street} saved` : `${parsed.data.street} added`);
        onClose();
      },
      onError: (error: Error) =>
        setErrors({
          street: error instanceof ApiError ? error.message : `The address could not be ${address ? 'saved' : 'added'}`,
        }),
    };
    if (address) change.mutate({ addressId: address._id, body: parsed.data }, done);
    else add.mutate(parsed.data, done);
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={address ? 'Edit service address' : 'Add service address'}
      centered
      radius="lg"
    >
      <Stack>
        {ADDRESS_FIELDS.map((f, i) => (
          <TextInput
            key={f.name}
            label={f.label}
            withAsterisk={f.name !== 'label'}
            placeholder={f.placeholder}
            value={values[f.name]}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setValues((v) => ({ ...v, [f.name]: value }));
              setErrors(({ [f.name]: _gone, ...rest }) => rest);
            }}
            error={errors[f.name]}
            data-autofocus={i === 0 || undefined}
          />
        ))}
        {address ? (
          <Text size="sm" c="dimmed">
            Open jobs at this address move with it; requests keep the address they were sent with.
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={save} loading={saving}>
            {address ? 'Save' : 'Add'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Removing a service address: refused while an open job is there (the server says which). */
function RemoveServiceAddress({
  clientId,
  address,
  name,
  onClose,
}: {
  clientId: string;
  address: ServiceAddress;
  name: string;
  onClose: () => void;
}) {
  const remove = useRemoveServiceAddress(clientId);
  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      title="Remove this service address?"
      confirmLabel="Remove address"
      confirmColor="red.9"
      loading={remove.isPending}
      onConfirm={() =>
        remove.mutate(address._id, {
          onSuccess: () => {
            toast.success(`${name} removed`);
            onClose();
          },
        })
      }
    >
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {name}: {addressLine(address)}
      </Text>
      <Text size="sm">
        It is no longer offered for new requests and jobs. Requests and finished jobs at it keep the address they have.
      </Text>
      {remove.isError ? (
        <Alert color="red" role="alert">
          {remove.error.message}
        </Alert>
      ) : null}
    </ConfirmDialog>
  );
}

const CHANNEL_LABELS: Record<MessageChannel, string> = { email: 'E-mail', text: 'Text', both: 'Both' };
const CHANNEL_WORDS: Record<MessageChannel, string> = { email: 'e-mail', text: 'text', both: 'e-mail and text' };

function EditClient({ client, opened, onClose }: { client: ClientDetail; opened: boolean; onClose: () => void }) {
  const update = useUpdateClient(client._id);
  const [values, setValues] = useState({
    name: client.name,
    companyName: client.companyName,
    phone: client.phone,
    mobile: formatMobile(client.mobile),
    messageChannel: client.messageChannel,
    notes: client.notes,
    billingStreet: client.billingAddress?.street ?? '',
    billingCity: client.billingAddress?.city ?? '',
    billingState: client.billingAddress?.state ?? '',
    billingZip: client.billingAddress?.zip ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = () => {
    const { billingStreet, billingCity, billingState, billingZip, ...rest } = values;
    const billing = [billingStreet, billingCity, billingState, billingZip];
    const parsed = clientUpdateInput.safeParse({
      ...rest,
      // All four left empty: the bills go to the property.
      billingAddress: billing.some((v) => v.trim())
        ? { street: billingStreet, city: billingCity, state: billingState, zip: billingZip }
        : null,
    });
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(
          parsed.error.issues.map((i) => [
            i.path[0] === 'billingAddress'
              ? `billing${String(i.path[1]).replace(/^./, (x) => x.toUpperCase())}`
              : String(i.path[0]),
            i.message,
          ]),
        ),
      );
      return;
    }
    update.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Client saved');
        onClose();
      },
      onError: (error) => {
        // The server reads the mobile number (it knows every country's numbers): its refusal names the field.
        if (error.message.startsWith('mobile:'))
          setErrors({ mobile: error.message.replace(/^mobile:\s*(.)/, (_m, first: string) => first.toUpperCase()) });
        else toast.error('The client could not be saved');
      },
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
        <TextInput
          label="Company"
          description="For a business client: shown with the contact's name"
          value={values.companyName}
          onChange={set('companyName')}
          error={errors.companyName}
        />
        <TextInput label="Phone" type="tel" value={values.phone} onChange={set('phone')} error={errors.phone} />
        <TextInput
          label="Mobile for texts"
          description="Only a number the client gave you for texts: public forms never set it"
          type="tel"
          value={values.mobile}
          onChange={set('mobile')}
          error={errors.mobile}
        />
        <div>
          <Text size="sm" fw={500} id="channel-label">
            Send messages by
          </Text>
          <SegmentedControl
            aria-labelledby="channel-label"
            value={values.messageChannel}
            onChange={(value) => setValues((v) => ({ ...v, messageChannel: value as MessageChannel }))}
            data={MESSAGE_CHANNELS.map((value) => ({ value, label: CHANNEL_LABELS[value] }))}
          />
        </div>
        <Text size="sm" fw={600} mb={-8}>
          Billing address
        </Text>
        <Text size="xs" c="dimmed" mt={-8}>
          Where the bills go, when not to the property worked at. Leave empty for the property.
        </Text>
        <TextInput
          label="Billing street"
          value={values.billingStreet}
          onChange={set('billingStreet')}
          error={errors.billingStreet}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Billing city"
            value={values.billingCity}
            onChange={set('billingCity')}
            error={errors.billingCity}
          />
          <TextInput
            label="Billing state"
            value={values.billingState}
            onChange={set('billingState')}
            error={errors.billingState}
          />
          <TextInput
            label="Billing zip"
            value={values.billingZip}
            onChange={set('billingZip')}
            error={errors.billingZip}
          />
        </Group>
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
  const [adding, addDialog] = useDisclosure(false);
  const [editingAddress, setEditingAddress] = useState<ServiceAddress | null>(null);
  const [removing, setRemoving] = useState<{ address: ServiceAddress; name: string } | null>(null);
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
                {c.companyName ? (
                  <Text fw={700} data-testid="client-company">
                    {c.companyName}
                  </Text>
                ) : null}
                {c.email ? (
                  <Anchor href={`mailto:${c.email}`} style={{ overflowWrap: 'anywhere' }}>
                    {c.email}
                  </Anchor>
                ) : (
                  <Text c="dimmed">{messages.noEmail}</Text>
                )}
                {c.phone ? <Anchor href={telHref(c.phone)}>{c.phone}</Anchor> : <Text c="dimmed">No phone</Text>}
                {c.mobile ? (
                  <Text size="sm">
                    Mobile for texts:{' '}
                    <Anchor href={telHref(c.mobile)} underline="always">
                      {formatMobile(c.mobile)}
                    </Anchor>
                  </Text>
                ) : null}
                <Text size="sm" data-testid="client-channel">
                  Hears from us by {CHANNEL_WORDS[c.messageChannel]}
                </Text>
                <Text size="sm" c="dimmed">
                  Client since {formatDayOf(c.createdAt, siteConfig().timeZone)}
                </Text>
                {balance > 0 ? (
                  // On a phone the invoices come after the properties: what is owed is said at the top.
                  <Text hiddenFrom="md" fw={700} c="red.9">
                    Balance owed: {formatDollars(balance)}
                  </Text>
                ) : null}
              </Stack>
            </SectionCard>
            <SectionCard title="Service addresses">
              <Stack gap="sm">
                {c.addresses.map((a, i) => (
                  <Group
                    key={a._id}
                    justify="space-between"
                    wrap="nowrap"
                    gap="xs"
                    align="flex-start"
                    data-testid="service-address"
                  >
                    <Stack gap={0} miw={0}>
                      <Text size="xs" c="dimmed" fw={600}>
                        {a.label || `Address ${i + 1}`}
                      </Text>
                      <Anchor href={mapHref(a)} target="_blank" rel="noreferrer" style={{ overflowWrap: 'anywhere' }}>
                        {addressLine(a)}
                      </Anchor>
                      <Group gap={4} mt={2}>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          leftSection={<IconPencil size={14} aria-hidden />}
                          aria-label={`Edit ${a.label || `Address ${i + 1}`}`}
                          onClick={() => setEditingAddress(a)}
                        >
                          Edit
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          leftSection={<IconTrash size={14} aria-hidden />}
                          aria-label={`Remove ${a.label || `Address ${i + 1}`}`}
                          onClick={() => setRemoving({ address: a, name: a.label || `Address ${i + 1}` })}
                        >
                          Remove
                        </Button>
                      </Group>
                    </Stack>
                    <Button
                      component={Link}
                      to={`${paths.admin.newQuoteRequest}?client=${encodeURIComponent(c._id)}&address=${encodeURIComponent(a._id)}`}
                      size="xs"
                      variant="light"
                      leftSection={<IconPlus size={14} aria-hidden />}
                      aria-label={`New request at ${addressLine(a)}`}
                      style={{ flexShrink: 0 }}
                    >
                      Request
                    </Button>
                  </Group>
                ))}
                <Group>
                  <Button
                    variant="default"
                    size="sm"
                    leftSection={<IconPlus size={16} aria-hidden />}
                    onClick={addDialog.open}
                  >
                    Add service address
                  </Button>
                </Group>
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
            <ClientTexts clientId={c._id} hasEmail={Boolean(c.email)} />
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
                  formatDayOf(r.createdAt, siteConfig().timeZone),
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
                  formatDayOf(q.quoteDate, siteConfig().timeZone),
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
                  formatDayOf(j.createdAt, siteConfig().timeZone),
                ])}
              />
            </SectionCard>
            <ServicePlanOffers client={c} />
          </Stack>
        </Grid.Col>
      </Grid>
      {editing ? <EditClient client={c} opened={editing} onClose={editDialog.close} /> : null}
      {adding ? <ServiceAddressDialog clientId={c._id} onClose={addDialog.close} /> : null}
      {editingAddress ? (
        <ServiceAddressDialog clientId={c._id} address={editingAddress} onClose={() => setEditingAddress(null)} />
      ) : null}
      {removing ? (
        <RemoveServiceAddress
          clientId={c._id}
          address={removing.address}
          name={removing.name}
          onClose={() => setRemoving(null)}
        />
      ) : null}
      {seeing ? <TheirPage clientId={c._id} onClose={theirPage.close} /> : null}
    </>
  );
}
