import { formatArrivalWallTimes } from '#shared/arrival-window';
import { Anchor, Button, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import type { QuoteRequestStatus, QuoteStatus } from '#shared/constants';
import { QUOTE_STATE_LABELS } from '#shared/statuses';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import { quoteNumberOf } from '#shared/schemas/quote-request';
import type { StatusTimeline } from '#shared/schemas/status-timeline';
import { EmailMyLink } from '../../../components/email-my-link';
import { StatusText } from '../../../components/status-text';
import { ApiError } from '../../../lib/api-client';
import { telHref } from '../../../lib/links';
import { siteConfig } from '../../../lib/site-config';
import { usePageTitle } from '../../../lib/use-page-title';
import { useStatusTimeline } from '../api/status-timeline';
import { ClientTimeline } from '../components/client-timeline';
import layout from '../../../components/layout.module.css';

const STATUS_HINTS: Partial<Record<QuoteRequestStatus, string>> = {
  Pending: 'We have your request and will review it shortly.',
  Accepted: 'We are preparing your quote: it will arrive by e-mail.',
  'Quote Sent': 'Your quote was sent by e-mail: please check your inbox.',
};

/** What the client can do, by where their quote stands. */
const QUOTE_STATE_HINTS: Record<QuoteStatus, string> = {
  Pending: 'Your quote was sent by e-mail: open it from the e-mail to accept it, decline it or ask us a question.',
  'Requested More Info': 'We have your question and will answer by e-mail. Your quote stays open in the meantime.',
  Accepted: 'Thank you: we have your acceptance and will be in touch to schedule the work.',
  Declined: 'You declined the quote. Contact us if you would like a different option.',
};

/** Where the work stands once the quote is accepted: the status line's words, the spec colour it borrows, and what comes next. */
interface Stage {
  label: string;
  colourOf: string;
  hint: string;
}

const CANCELLED: Stage = {
  label: 'Cancelled',
  colourOf: 'Cancelled',
  hint: 'This job was cancelled. Contact us if you have any questions.',
};

/** After the client's acceptance, the furthest step reached; null before it (the spec's statuses then). */
function stageOf(timeline: StatusTimeline): Stage | null {
  if (timeline.jobCancelled) return CANCELLED;
  if (timeline.quoteState !== 'Accepted') return null;
  const done = (name: string) => timeline.steps.find((s) => s.step === name && s.done && s.kind !== 'deposit');
  const bill = done('invoice');
  if (done('paid')) return { label: 'Paid', colourOf: 'Paid', hint: 'Paid in full. Thank you for your business!' };
  if (bill?.invoiceStatus) {
    const owed = 'Your invoice was sent by e-mail: open it to see the balance and how to pay.';
    if (bill.invoiceStatus === 'Partly paid') return { label: 'Partly paid', colourOf: 'Partially Paid', hint: owed };
    if (bill.invoiceStatus === 'Overdue') return { label: 'Invoice overdue', colourOf: 'Overdue', hint: owed };
    return { label: 'Invoice due', colourOf: 'Sent', hint: owed };
  }
  if (done('workDone'))
    return {
      label: 'Work done',
      colourOf: 'Completed',
      hint: 'The work is done: your job report was sent by e-mail, and your invoice will follow.',
    };
  if (done('visit'))
    return {
      label: 'Visit booked',
      colourOf: 'In Progress',
      hint: 'Your visit is booked. We will e-mail you if anything changes.',
    };
  return { label: 'Accepted', colourOf: 'Accepted', hint: QUOTE_STATE_HINTS.Accepted };
}

export default function StatusPage() {
  const { quoteRequestId = '' } = useParams();
  // A quote's number (QT74936259-2) names itself; a request's id or number reads as Q….
  const number = /^qt\d{8}(-\d{1,3})?$/i.test(quoteRequestId.trim())
    ? quoteRequestId.trim().toUpperCase()
    : quoteNumberOf(quoteRequestId);
  usePageTitle(`Quote Request #${number}`);
  const status = useStatusTimeline(quoteRequestId);
  const { businessEmail, businessPhone } = siteConfig();
  const notFound = status.error instanceof ApiError && status.error.status === 404;

  return (
    <Container size={720} className={layout.pagePad}>
      <Paper withBorder shadow="sm" radius="lg" className={layout.cardPad}>
        <Stack gap="md">
          <Title order={1}>Quote Request #{number}</Title>
          <Text c="dimmed">
            If you have any questions about your request, contact us at{' '}
            <Anchor href={telHref(businessPhone)} underline="always">
              {businessPhone}
            </Anchor>{' '}
            or{' '}
            <Anchor href={`mailto:${businessEmail}`} underline="always">
              {businessEmail}
            </Anchor>
            .
          </Text>
          {status.isPending ? (
            <Group gap="sm">
              <Loader size="sm" aria-label="Loading the status" />
              <Text>Checking the status…</Text>
            </Group>
          ) : status.isError ? (
            <Stack gap="sm" role="alert">
              <Text c="red.9" fw={600}>
                {notFound ? messages.quoteNumberInvalid : messages.lookupFailed}
              </Text>
              <Group>
                {notFound ? null : (
                  <Button onClick={() => void status.refetch()} loading={status.isFetching}>
                    Try again
                  </Button>
                )}
                <Button component={Link} to={paths.quoteRequestStatus} variant="light">
                  Try another number
                </Button>
              </Group>
            </Stack>
          ) : (
            <StatusDetails timeline={status.data} />
          )}
          <EmailMyLink />
        </Stack>
      </Paper>
    </Container>
  );
}

function StatusDetails({ timeline }: { timeline: StatusTimeline }) {
  const stage = stageOf(timeline);
  const hint = stage
    ? stage.hint
    : timeline.quoteState
      ? QUOTE_STATE_HINTS[timeline.quoteState]
      : STATUS_HINTS[timeline.quoteStatus];
  const hasDocuments = timeline.steps.some((s) => s.step === 'quoteSent' && s.done);
  const nextVisit = timeline.steps.find((s) => s.step === 'visit' && s.upcoming);
  return (
    <>
      <Text size="lg">
        Status:{' '}
        {stage ? (
          <StatusText status={stage.label} colourOf={stage.colourOf} />
        ) : (
          <StatusText status={timeline.quoteStatus} />
        )}
      </Text>
      {nextVisit?.date && nextVisit.window ? (
        <Text size="lg">
          Next visit: <b>{formatArrivalWallTimes({ date: nextVisit.date, ...nextVisit.window })}</b>
          {nextVisit.href ? (
            <>
              {' '}
              <Anchor component={Link} to={nextVisit.href} size="md" fw={600}>
                Reschedule or cancel it on your page
              </Anchor>
            </>
          ) : null}
        </Text>
      ) : null}
      {timeline.quoteState && !stage ? (
        <Text size="lg">
          Your quote: <b>{QUOTE_STATE_LABELS[timeline.quoteState]}</b>
        </Text>
      ) : null}
      {hint ? <Text>{hint}</Text> : null}
      {timeline.quoteStatus === 'Declined' ? (
        <Text>
          Please check email for more info, or{' '}
          <Anchor component={Link} to={paths.contact} fw={600}>
            Contact Us
          </Anchor>{' '}
          if you think this is an error.
        </Text>
      ) : null}
      <Title order={2} size="h4" mt="xs">
        Step by step
      </Title>
      <ClientTimeline timeline={timeline} />
      {hasDocuments && !timeline.documents ? (
        <Text size="sm" c="dimmed">
          Your quote, report and invoices open from the links in our e-mails, or from the status link in the first
          e-mail we sent you.
        </Text>
      ) : null}
    </>
  );
}
