import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { formatLongDate, todayIn } from '#shared/dates';
import { formatDollars } from '#shared/money';
import { planSignInput, type PlanOfferView } from '#shared/schemas/service-plans';
import { ApiError } from '../../../lib/api-client';
import { telHref } from '../../../lib/links';
import { siteConfig } from '../../../lib/site-config';
import { usePageTitle } from '../../../lib/use-page-title';
import { useClientPlanOffer, useSignPlanOffer } from '../api/plan-offers';

const term = (months: number) => (months === 12 ? '1 year' : months === 1 ? '1 month' : `${months} months`);

/** A row of the plan's details: its label above, the value. */
function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * A service plan offered to the client (issue 31), from the e-mailed link, on a phone first: what it
 * includes, when the visits come, what it costs and for how long; signed with their typed name, its
 * visits are booked and the page says so.
 */
export default function ServicePlanOfferPage() {
  const id = useParams().offerId ?? '';
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const offer = useClientPlanOffer(id, token);
  const o = offer.data;
  usePageTitle(o ? `Your ${o.name} plan` : 'Your service plan');
  return (
    <Container size="sm" py="xl">
      {!o ? (
        offer.isError ? (
          <Alert color="red" title="This plan cannot be opened">
            {offer.error.message}
          </Alert>
        ) : (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading your plan" />
          </Group>
        )
      ) : (
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              Your {o.name} plan
            </Title>
            <Text c="dimmed">For {o.clientName}</Text>
          </div>
          {o.included ? <Text>{o.included}</Text> : null}
          <Paper withBorder radius="lg" p="md">
            <Stack gap="sm">
              <Detail label="Visits">{o.schedule}</Detail>
              <Detail label="First visits">
                <List size="sm" spacing={2}>
                  {o.firstDates.map((d) => (
                    <List.Item key={d}>{formatLongDate(d)}</List.Item>
                  ))}
                </List>
              </Detail>
              <Detail label="Price">
                {formatDollars(o.price)}{' '}
                {o.billing === 'month' ? 'a month, invoiced on the 1st' : 'a visit, invoiced after it'}
                {o.taxable ? ', plus sales tax' : ''}
              </Detail>
              <Detail label="Where">{o.address}</Detail>
              <Detail label="For">
                {term(o.termMonths)}, until {formatLongDate(o.until)}: we remind you a month before it ends
              </Detail>
            </Stack>
          </Paper>
          <SignOrState offer={o} id={id} token={token} />
        </Stack>
      )}
    </Container>
  );
}

function SignOrState({ offer, id, token }: { offer: PlanOfferView; id: string; token: string }) {
  const sign = useSignPlanOffer(id, token);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { businessPhone } = siteConfig();
  const call = (
    <Anchor href={telHref(businessPhone)} fw={600}>
      {businessPhone}
    </Anchor>
  );
  if (offer.state === 'Signed')
    return (
      <Alert
        color="success"
        icon={<IconCircleCheck aria-hidden />}
        title="Signed: your visits are booked"
        role="status"
      >
        Signed by {offer.signedName}
        {offer.signedAt ? ` on ${formatLongDate(todayIn(siteConfig().timeZone, new Date(offer.signedAt)))}` : ''}. We
        e-mailed you the dates and remind you the day before each visit. To change one, call us at {call}.
      </Alert>
    );
  if (offer.state === 'Withdrawn')
    return (
      <Alert color="orange" title="This plan is no longer offered">
        Please call us at {call} and we will send you a new one.
      </Alert>
    );
  const submit = async () => {
    const parsed = planSignInput.safeParse({ token, signedName: name });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please type your full name to sign');
    setError(null);
    try {
      await sign.mutateAsync(parsed.data.signedName);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Your signature could not be sent: please try again');
    }
  };
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="sign-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="sign-heading">
          Sign the plan
        </Title>
        <Text size="sm">
          By signing you agree to the visits and the price above for {term(offer.termMonths)}. To stop it, call us at{' '}
          {call}.
        </Text>
        <TextInput
          label="Type your full name to sign"
          autoComplete="name"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          size="md"
        />
        <Button size="md" onClick={() => void submit()} loading={sign.isPending}>
          Sign and start the plan
        </Button>
      </Stack>
    </Paper>
  );
}
