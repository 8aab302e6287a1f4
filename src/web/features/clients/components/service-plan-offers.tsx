import { Alert, Anchor, Badge, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { addDays, formatLongDate, todayIn } from '#shared/dates';
import { paths } from '#shared/paths';
import type { ClientView } from '#shared/schemas/clients';
import { planPriceWords, type PlanOfferView } from '#shared/schemas/service-plans';
import { jobNumberOf } from '#shared/schemas/jobs';
import { SectionCard } from '../../../components/section-card';
import { ApiError } from '../../../lib/api-client';
import { addressLine } from '../../../lib/links';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useOfferablePlans, usePlanOfferChanges, usePlanOffers } from '../api/plan-offers';

const STATE_COLORS: Record<PlanOfferView['state'], string> = { Offered: 'brand', Signed: 'success', Withdrawn: 'gray' };

/** The first day from tomorrow that every month has (the 1st to the 28th): a plan's first visit. */
function firstOfferDay(): string {
  let date = addDays(todayIn(siteConfig().timeZone), 1);
  while (date.slice(8) > '28') date = addDays(date, 1);
  return date;
}

/**
 * A client's service plans (issue 31): those offered, signed (with the job they made) or withdrawn, and
 * "Offer a service plan": the client is e-mailed a link to read and sign it.
 */
export function ServicePlanOffers({ client }: { client: Pick<ClientView, '_id' | 'email' | 'addresses'> }) {
  const offers = usePlanOffers(client._id);
  const { withdraw } = usePlanOfferChanges(client._id);
  const [offering, setOffering] = useState(false);
  const list = offers.data?.offers ?? [];
  return (
    <SectionCard
      title="Service plans"
      region
      action={
        <Button
          size="xs"
          variant="light"
          leftSection={<IconRepeat size={16} aria-hidden />}
          onClick={() => setOffering(true)}
        >
          Offer a service plan
        </Button>
      }
    >
      {offers.isError ? (
        <Text c="red.9" size="sm">
          The service plans could not be loaded: {offers.error.message}
        </Text>
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          None offered yet. A plan (gutter care twice a year, monthly upkeep) books and invoices its visits by itself
          once the client signs it.
        </Text>
      ) : (
        <Stack gap="sm">
          {list.map((o) => (
            <Group key={o._id} justify="space-between" wrap="wrap" gap="xs" align="flex-start">
              <div>
                <Group gap={6}>
                  <Text fw={600}>{o.name}</Text>
                  <Badge
                    variant="light"
                    color={STATE_COLORS[o.state]}
                    c={o.state === 'Withdrawn' ? 'dark.7' : undefined}
                  >
                    {o.state}
                  </Badge>
                </Group>
                <Text size="sm">{o.schedule}</Text>
                <Text size="sm" c="dimmed">
                  {planPriceWords(o)} · {o.address}
                  {o.signedName && o.signedAt
                    ? ` · signed by ${o.signedName} on ${formatLongDate(todayIn(siteConfig().timeZone, new Date(o.signedAt)))}`
                    : ` · offered ${formatLongDate(todayIn(siteConfig().timeZone, new Date(o.createdAt)))}`}
                </Text>
              </div>
              {o.jobId ? (
                <Anchor component={Link} to={paths.admin.job(o.jobId)} size="sm" fw={600}>
                  Job {jobNumberOf(o.jobId)}
                </Anchor>
              ) : o.state === 'Offered' ? (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red.9"
                  loading={withdraw.isPending && withdraw.variables === o._id}
                  onClick={() =>
                    withdraw.mutate(o._id, {
                      onSuccess: () => toast.success(`${o.name} withdrawn: its link now says so`),
                      onError: (e) => toast.error(e.message),
                    })
                  }
                >
                  Withdraw
                </Button>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
      <Modal opened={offering} onClose={() => setOffering(false)} title="Offer a service plan" centered radius="lg">
        {offering ? <OfferForm client={client} onDone={() => setOffering(false)} /> : null}
      </Modal>
    </SectionCard>
  );
}

function OfferForm({
  client,
  onDone,
}: {
  client: Pick<ClientView, '_id' | 'email' | 'addresses'>;
  onDone: () => void;
}) {
  const plans = useOfferablePlans(true);
  const { offer } = usePlanOfferChanges(client._id);
  const [servicePlanId, setServicePlanId] = useState<string | null>(null);
  const [addressId, setAddressId] = useState<string | null>(client.addresses[0]?._id ?? null);
  const [firstDate, setFirstDate] = useState(firstOfferDay());
  const [error, setError] = useState<string | null>(null);
  const chosen = plans.data?.find((p) => p._id === servicePlanId);
  if (!client.email)
    return (
      <Stack>
        <Alert color="orange" title="No e-mail on file">
          The plan is sent to the client to sign: add their e-mail first (Edit client).
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  const submit = async () => {
    if (!servicePlanId) return setError('Pick a service plan');
    setError(null);
    try {
      await offer.mutateAsync({ servicePlanId, firstDate, ...(addressId ? { addressId } : {}) });
      toast.success(`Sent to ${client.email}: they read and sign it from the link`);
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The plan could not be sent');
    }
  };
  return (
    <Stack>
      <Select
        label="Service plan"
        withAsterisk
        placeholder={plans.data?.length === 0 ? 'None yet: add one in the Price book' : 'Choose a plan'}
        data={(plans.data ?? []).map((p) => ({ value: p._id, label: p.name }))}
        value={servicePlanId}
        onChange={(v) => {
          setServicePlanId(v);
          setError(null);
        }}
      />
      {chosen ? (
        <Text size="sm" c="dimmed">
          {planPriceWords(chosen)}, for {chosen.termMonths} {chosen.termMonths === 1 ? 'month' : 'months'}
          {chosen.included ? `: ${chosen.included}` : ''}
        </Text>
      ) : null}
      {plans.data?.length === 0 ? (
        <Anchor component={Link} to={`${paths.admin.priceBook}#service-plans`} size="sm">
          Add a service plan in the Price book
        </Anchor>
      ) : null}
      {client.addresses.length > 1 ? (
        <Select
          label="Where"
          data={client.addresses.map((a) => ({
            value: a._id,
            label: a.label ? `${a.label}: ${addressLine(a)}` : addressLine(a),
          }))}
          value={addressId}
          onChange={setAddressId}
          allowDeselect={false}
        />
      ) : null}
      <TextInput
        type="date"
        label="First visit"
        description="Plans by the month come on this day of the month: the 1st to the 28th"
        withAsterisk
        value={firstDate}
        onChange={(e) => {
          setFirstDate(e.currentTarget.value);
          setError(null);
        }}
      />
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone} disabled={offer.isPending}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={offer.isPending}>
          Send to the client
        </Button>
      </Group>
    </Stack>
  );
}
