import { Alert, Anchor, Button, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { formatArrivalWallTimes } from '#shared/arrival-window';
import { formatLongDate, formatMoment, wallTimeIn } from '#shared/dates';
import { formatMoney } from '#shared/money';
import type { ClientPagePlan, ClientPageView, ClientQuoteState } from '#shared/schemas/client-page';
import type { PaymentMethod } from '#shared/payment-methods';
import { PlainTextarea } from '../../../components/plain-textarea';
import { statusColor } from '../../../components/status-text';
import { useCheckout } from '../../../lib/checkout';
import { siteConfig } from '../../../lib/site-config';
import { useHydrated, WhenHydrated } from '../../../lib/use-hydrated';
import { useRequestNewWork } from '../api/client-page';
import classes from './client-page-view.module.css';
import { VisitChange, type PageLink } from './visit-change';

/** A quote's state in the client's words, in the colour of the spec's status it resembles. */
const QUOTE_STATES: Record<ClientQuoteState, { label: string; colourOf: string }> = {
  open: { label: 'Open', colourOf: 'Quote Sent' },
  accepted: { label: 'Accepted', colourOf: 'Accepted' },
  declined: { label: 'Declined', colourOf: 'Declined' },
  replaced: { label: 'Replaced by a newer version', colourOf: 'Draft' },
  expired: { label: 'Expired', colourOf: 'Overdue' },
};
const REQUEST_COLOURS: Record<string, string> = {
  Received: 'Pending',
  'Quote being prepared': 'Pending',
  'Quote sent': 'Quote Sent',
  'Quote accepted': 'Accepted',
  'Work done': 'Completed',
};
const INVOICE_COLOURS: Record<string, string> = {
  Due: 'Sent',
  'Partly paid': 'Partially Paid',
  Paid: 'Paid',
  Overdue: 'Overdue',
};
const METHOD_WORDS: Record<PaymentMethod, string> = {
  cash: 'in cash',
  check: 'by check',
  'card in person': 'by card',
  'card online': 'by card online',
  'bank transfer': 'by bank transfer',
  other: '',
  refund: '',
};

/** A receipt's line: money received, or given back (a refund is a negative payment, decision 035). */
function receiptWords(p: ClientPageView['invoices'][number]['payments'][number]): string {
  const on = formatLongDate(p.paidOn);
  if (p.amountCents < 0) return `Refunded ${formatMoney(-p.amountCents)} on ${on}`;
  return ['Received', formatMoney(p.amountCents), METHOD_WORDS[p.method], 'on', on].filter(Boolean).join(' ');
}

/** Pay online from the page: to the provider's hosted page for what is owed on this invoice. */
function PayButton({ invoice }: { invoice: ClientPageView['invoices'][number] }) {
  const checkout = useCheckout();
  const hydrated = useHydrated();
  if (!invoice.checkout) return null;
  const path = invoice.checkout;
  return (
    <>
      <Button
        size="sm"
        leftSection={<IconCreditCard size={18} aria-hidden />}
        loading={checkout.isPending}
        disabled={!hydrated}
        onClick={() => checkout.mutate(path)}
      >
        {invoice.kind === 'deposit'
          ? `Pay the deposit of ${formatMoney(invoice.balanceCents)}`
          : `Pay ${formatMoney(invoice.balanceCents)}`}
      </Button>
      {checkout.isError ? (
        <Alert color="red" title="The payment could not start" role="alert" w="100%">
          {checkout.error.message}. Please try again in a moment, or open the invoice for the other ways to pay.
        </Alert>
      ) : null}
    </>
  );
}

/** A status in a spec status's colour, on white (no colour mixing: the page stays valid CSS for the Nu checker). */
const TEXT_LABELS = { sent: 'Sent', delivered: 'Delivered', failed: 'Not delivered' } as const;
/** The status colours a text's state borrows. */
const TEXT_COLOURS = { sent: 'In Progress', delivered: 'Completed', failed: 'Cancelled' } as const;

/** A service plan's state in the client's words, and the status colour it borrows. */
const PLAN_STATES: Record<ClientPagePlan['state'], { label: string; colourOf: string }> = {
  offered: { label: 'Waiting for your signature', colourOf: 'Quote Sent' },
  lapsed: { label: 'Not signed in time', colourOf: 'Draft' },
  signed: { label: 'Signed', colourOf: 'Accepted' },
  ended: { label: 'Ended', colourOf: 'Completed' },
};

function Pill({ colourOf, label }: { colourOf: string | undefined; label: string }) {
  const colour = statusColor(colourOf);
  return (
    <span className={classes.pill} style={{ color: colour.text, borderColor: colour.dot }}>
      {label}
    </span>
  );
}

function Section({ id, title, count, children }: { id: string; title: string; count: number; children: ReactNode }) {
  return (
    <Paper component="section" withBorder radius="lg" p="md" aria-labelledby={id}>
      <Title order={2} size="h3" id={id} mb="sm">
        {title}
      </Title>
      {count === 0 ? (
        <Text c="dimmed" size="sm">
          None yet.
        </Text>
      ) : (
        <ul className={classes.list}>{children}</ul>
      )}
    </Paper>
  );
}

function Item({ title, pill, children }: { title: ReactNode; pill?: ReactNode; children?: ReactNode }) {
  return (
    <li className={classes.item}>
      <div className={classes.head}>
        <Text fw={700} className={classes.wrap}>
          {title}
        </Text>
        {pill}
      </div>
      {children}
    </li>
  );
}

/**
 * Everything of a client's on one page (decision 036), phone first: requests, quotes, visits, reports,
 * invoices with their payments, and a form to ask for new work. `readOnly`: staff looking at it as
 * the client sees it (the form cannot be sent).
 */
export function ClientPageContent({
  page,
  confirmVisit,
  link,
}: {
  page: ClientPageView;
  /** Confirm a visit (the client's own page; staff looking at it cannot). */
  confirmVisit?: { run: (visitId: string) => void; pending: string | null; error: string | null };
  /** The page's own link, to reschedule or cancel a visit (the client's own page; staff looking at it cannot). */
  link?: PageLink;
}) {
  // What the client just did (a visit moved or cancelled), said at the top of the visits.
  const [said, setSaid] = useState<string | null>(null);
  // The moment the page was drawn: a visit begun by then is no longer for confirming.
  const [drawnAt] = useState(() => Date.now());
  const notBegun = (v: { startsAt: string }) => Date.parse(v.startsAt) > drawnAt;
  const upcoming = page.visits.filter((v) => v.upcoming);
  const past = page.visits.filter((v) => !v.upcoming);
  return (
    <Stack gap="md">
      <div>
        <Title order={1} className={classes.wrap}>
          {page.client.name}
        </Title>
        <Text c="dimmed" size="sm" className={classes.wrap}>
          Your requests, quotes, visits, reports and invoices with us, newest first.
        </Text>
        {page.linkValidUntil ? (
          <Text c="dimmed" size="sm">
            This link works until {formatLongDate(page.linkValidUntil)}; each e-mail from us carries a fresh one.
          </Text>
        ) : null}
      </div>
      {page.balanceCents > 0 ? (
        <Alert color="blue" title={`You owe ${formatMoney(page.balanceCents)}`}>
          {page.invoices.some((i) => i.checkout)
            ? 'Pay by card below, or open an invoice for the other ways to pay.'
            : 'Open an invoice below to see how to pay it.'}
        </Alert>
      ) : null}

      <Section id="requests" title="Your requests" count={page.requests.length}>
        {page.requests.map((r) => (
          <Item
            key={r.id}
            title={`Request ${r.number}`}
            pill={<Pill colourOf={REQUEST_COLOURS[r.status] ?? r.status} label={r.status} />}
          >
            <Text size="sm" className={classes.wrap}>
              {r.address} · sent {formatLongDate(r.sentOn)}
            </Text>
            <Anchor href={r.href} size="sm" underline="always">
              Status of request {r.number}
            </Anchor>
          </Item>
        ))}
      </Section>

      <Section id="quotes" title="Your quotes" count={page.quotes.length}>
        {page.quotes.map((q) => (
          <Item
            key={q.number}
            title={`Quote ${q.number}`}
            pill={<Pill colourOf={QUOTE_STATES[q.state].colourOf} label={QUOTE_STATES[q.state].label} />}
          >
            <Text size="sm" className={classes.wrap}>
              {q.projectName} · {formatMoney(q.totalCents)}
            </Text>
            <Text size="sm">
              Sent {formatLongDate(q.sentOn)}
              {q.state === 'open' ? ` · valid until ${formatLongDate(q.validUntil)}` : ''}
            </Text>
            <div className={classes.actions}>
              <Button component="a" href={q.href} size="xs">
                {q.state === 'open' ? `Open quote ${q.number} to answer it` : `Open quote ${q.number}`}
              </Button>
              <Button component="a" href={q.pdfHref} size="xs" variant="light">
                PDF of quote {q.number}
              </Button>
            </div>
          </Item>
        ))}
      </Section>

      {said ? (
        <Alert
          color="green"
          role="status"
          title={
            <Text span inherit c="var(--mantine-color-text)">
              Done
            </Text>
          }
          withCloseButton
          onClose={() => setSaid(null)}
        >
          {said}
        </Alert>
      ) : null}
      <Section id="visits" title="Your visits" count={page.visits.length}>
        {[...upcoming, ...past].map((v) => (
          <Item
            key={v.id}
            title={formatArrivalWallTimes(v)}
            pill={
              <Pill
                colourOf={v.upcoming ? 'In Progress' : 'Completed'}
                label={v.upcoming ? (v.awaitingApproval ? 'Asked for' : 'Coming') : 'Past'}
              />
            }
          >
            <Text size="sm" className={classes.wrap}>
              {v.address}
            </Text>
            {v.upcoming && v.awaitingApproval ? (
              <Text size="sm" fw={600}>
                You asked for this time: we hold it for you and will confirm it by e-mail.
              </Text>
            ) : v.upcoming ? (
              <Anchor href={v.icsHref} size="sm" underline="always">
                Add the visit of {formatLongDate(v.date)} to your calendar
              </Anchor>
            ) : null}
            {v.awaitingApproval ? null : v.upcoming && v.confirmed ? (
              <Text size="sm" fw={600} data-testid="visit-confirmed">
                You confirmed this time. Thank you!
              </Text>
            ) : v.upcoming && notBegun(v) && confirmVisit ? (
              <div>
                {/* A tap before the app has taken over the page would do nothing: the button waits for it. */}
                <WhenHydrated>
                  {(hydrated) => (
                    <Button
                      size="sm"
                      mt={4}
                      loading={confirmVisit.pending === v.id}
                      disabled={!hydrated}
                      onClick={() => confirmVisit.run(v.id)}
                      aria-label={`Confirm the visit of ${formatLongDate(v.date)}`}
                    >
                      Confirm this visit
                    </Button>
                  )}
                </WhenHydrated>
                {confirmVisit.error && confirmVisit.pending === null ? (
                  <Text size="sm" c="red.9" role="alert">
                    {confirmVisit.error}
                  </Text>
                ) : null}
              </div>
            ) : v.upcoming && notBegun(v) ? (
              <Text size="sm" c="dimmed">
                Not confirmed yet
              </Text>
            ) : null}
            {v.upcoming && notBegun(v) && link ? <VisitChange visit={v} link={link} onDone={setSaid} /> : null}
          </Item>
        ))}
      </Section>

      {page.servicePlans.length ? (
        <Section id="service-plans" title="Your service plans" count={page.servicePlans.length}>
          {page.servicePlans.map((p) => (
            <Item
              key={p.id}
              title={p.name}
              pill={<Pill colourOf={PLAN_STATES[p.state].colourOf} label={PLAN_STATES[p.state].label} />}
            >
              <Text size="sm" className={classes.wrap}>
                {p.schedule}
              </Text>
              <Text size="sm" className={classes.wrap}>
                {p.price} · {p.address}
              </Text>
              {p.signedAt ? (
                <Text size="sm">
                  Signed {formatLongDate(wallTimeIn(siteConfig().timeZone, new Date(p.signedAt)).date)}
                </Text>
              ) : null}
              {p.state === 'lapsed' ? <Text size="sm">Its dates have passed: call us to start it again.</Text> : null}
              {p.href ? (
                <div className={classes.actions}>
                  <Button component="a" href={p.href} size="xs" variant={p.state === 'offered' ? 'filled' : 'light'}>
                    {p.state === 'offered' ? `Read and sign ${p.name}` : `Read ${p.name}`}
                  </Button>
                </div>
              ) : null}
            </Item>
          ))}
        </Section>
      ) : null}

      {page.texts.length ? (
        <Section id="texts" title="Our texts to you" count={page.texts.length}>
          {page.texts.map((t, n) => (
            <Item
              key={n}
              title={`We texted you ${formatMoment(t.at, siteConfig().timeZone)}`}
              pill={<Pill colourOf={TEXT_COLOURS[t.state]} label={TEXT_LABELS[t.state]} />}
            >
              <Text size="sm" className={classes.wrap}>
                {t.body}
              </Text>
            </Item>
          ))}
        </Section>
      ) : null}

      <Section id="reports" title="Job reports" count={page.reports.length}>
        {page.reports.map((r) => (
          <Item key={r.jobId} title={`Work done ${formatLongDate(r.on)}`}>
            <Anchor href={r.href} size="sm" underline="always">
              Job report of {formatLongDate(r.on)} (PDF)
            </Anchor>
          </Item>
        ))}
      </Section>

      <Section id="invoices" title="Your invoices" count={page.invoices.length}>
        {page.invoices.map((i) => (
          <Item
            key={i.id}
            title={`${i.kind === 'deposit' ? 'Deposit invoice' : 'Invoice'} ${i.number}`}
            pill={<Pill colourOf={INVOICE_COLOURS[i.status]} label={i.status} />}
          >
            <Text size="sm">
              Total {formatMoney(i.totalCents)} · balance <b>{formatMoney(i.balanceCents)}</b>
              {i.dueDate && i.balanceCents > 0 ? ` · due ${formatLongDate(i.dueDate)}` : ''}
            </Text>
            {i.payments.length > 0 ? (
              <ul className={classes.receipts} aria-label={`Payments on ${i.number}`}>
                {i.payments.map((p, n) => (
                  <li key={n}>
                    <Text size="sm">{receiptWords(p)}</Text>
                  </li>
                ))}
              </ul>
            ) : null}
            <div className={classes.actions}>
              <PayButton invoice={i} />
              <Button component="a" href={i.href} size="xs" variant={i.checkout ? 'default' : 'filled'}>
                {i.balanceCents > 0 && !i.checkout ? `Open invoice ${i.number} to pay` : `Open invoice ${i.number}`}
              </Button>
              <Button component="a" href={i.pdfHref} size="xs" variant="light">
                PDF of invoice {i.number}
              </Button>
            </div>
          </Item>
        ))}
      </Section>

      <RequestNewWork page={page} />
    </Stack>
  );
}

const ANOTHER = 'another';

/** "Request new work": the public request, prefilled with the client's details and properties. */
function RequestNewWork({ page }: { page: ClientPageView }) {
  const hydrated = useHydrated();
  const send = useRequestNewWork();
  const { client } = page;
  const [where, setWhere] = useState(client.addresses.length ? '0' : ANOTHER);
  const [sent, setSent] = useState<string | null>(null);

  // The fields are read from the form (uncontrolled, prefilled): what was typed before the app took
  // over the page the server sent is kept.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (page.readOnly) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const field = (name: string) => String(data.get(name) ?? '').trim();
    const address =
      where === ANOTHER
        ? { street: field('street'), city: field('city'), state: field('state'), zip: field('zip') }
        : client.addresses[Number(where)]!;
    send.mutate(
      {
        contactPerson: { name: field('name'), email: field('email'), phone: field('phone') },
        address,
        notes: field('notes'),
        images: [],
      },
      {
        onSuccess: (created) => {
          setSent(created.quoteRequest.quoteNumber);
          const notes = form.elements.namedItem('notes');
          if (notes instanceof HTMLTextAreaElement) notes.value = '';
        },
      },
    );
  };

  return (
    <Paper component="section" withBorder radius="lg" p="md" aria-labelledby="new-work">
      <Title order={2} size="h3" id="new-work" mb="sm">
        Request new work
      </Title>
      {sent ? (
        <Alert color="green" title="Request sent" mb="sm" role="status">
          Thank you: we have your request {sent} and will be in touch. It appears above when you open this page again.
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" required name="name" defaultValue={client.name} />
          <TextInput label="E-mail" type="email" required name="email" defaultValue={client.email} />
          <TextInput label="Phone" type="tel" name="phone" defaultValue={client.phone} />
          <NativeSelect
            label="Where"
            value={where}
            onChange={(e) => setWhere(e.currentTarget.value)}
            data={[
              ...client.addresses.map((a, n) => ({ value: String(n), label: `${a.street}, ${a.city}` })),
              { value: ANOTHER, label: 'Another address' },
            ]}
          />
          {where === ANOTHER ? (
            <>
              <TextInput label="Street address" required name="street" />
              <div className={classes.cityRow}>
                <TextInput label="City" required name="city" />
                <TextInput label="State" required name="state" defaultValue="CA" />
                <TextInput label="Zip code" required name="zip" />
              </div>
            </>
          ) : null}
          <PlainTextarea label="What should we do?" required rows={4} name="notes" />
          {send.isError ? (
            <Text c="red.9" size="sm" role="alert">
              {send.error.message}
            </Text>
          ) : null}
          <Button type="submit" disabled={!hydrated || page.readOnly} loading={send.isPending}>
            Send the request
          </Button>
          {page.readOnly ? (
            <Text size="sm" c="dimmed">
              Staff view: the form cannot be sent from here.
            </Text>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}
