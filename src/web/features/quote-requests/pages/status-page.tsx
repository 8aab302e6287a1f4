import { Anchor, Button, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import type { QuoteRequestStatus, QuoteStatus } from '../../../../shared/constants';
import { QUOTE_STATE_LABELS } from '../../../../shared/statuses';
import { formatLongDate } from '../../../../shared/dates';
import { messages } from '../../../../shared/messages';
import { paths } from '../../../../shared/paths';
import { quoteNumberOf } from '../../../../shared/schemas/quote-request';
import { StatusText } from '../../../components/status-text';
import { ApiError } from '../../../lib/api-client';
import { telHref } from '../../../lib/links';
import { siteConfig } from '../../../lib/site-config';
import { usePageTitle } from '../../../lib/use-page-title';
import { useQuoteStatus } from '../api/quote-status';
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

export default function StatusPage() {
  const { quoteRequestId = '' } = useParams();
  // A quote's number (QT74936259-2) names itself; a request's id or number reads as Q….
  const number = /^qt\d{8}(-\d{1,3})?$/i.test(quoteRequestId.trim())
    ? quoteRequestId.trim().toUpperCase()
    : quoteNumberOf(quoteRequestId);
  usePageTitle(`Quote Request #${number}`);
  const status = useQuoteStatus(quoteRequestId);
  const { businessEmail, businessPhone } = siteConfig();
  const notFound = status.error instanceof ApiError && status.error.status === 404;

  return (
    <Container size={720} className={layout.pagePad}>
      <Paper withBorder shadow="sm" radius="lg" className={layout.cardPad}>
        <Stack gap="md">
          <Title order={1}>Quote Request #{number}</Title>
          <Text c="dimmed">
            If you have any questions about your request, contact us at{' '}
            <Anchor href={telHref(businessPhone)}>{businessPhone}</Anchor> or{' '}
            <Anchor href={`mailto:${businessEmail}`}>{businessEmail}</Anchor>.
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
            <>
              <Text size="lg">
                Status: <StatusText status={status.data.quoteStatus} />
              </Text>
              {status.data.quoteState ? (
                <Text size="lg">
                  Your quote: <b>{QUOTE_STATE_LABELS[status.data.quoteState]}</b>
                </Text>
              ) : null}
              {status.data.nextVisit ? (
                <Text size="lg">
                  Next visit:{' '}
                  <b>
                    {formatLongDate(status.data.nextVisit.date)}, between {status.data.nextVisit.start} and{' '}
                    {status.data.nextVisit.end}
                  </b>
                </Text>
              ) : null}
              {status.data.quoteState ? (
                <Text>{QUOTE_STATE_HINTS[status.data.quoteState]}</Text>
              ) : STATUS_HINTS[status.data.quoteStatus] ? (
                <Text>{STATUS_HINTS[status.data.quoteStatus]}</Text>
              ) : null}
              {status.data.quoteStatus === 'Declined' ? (
                <Text>
                  Please check email for more info, or{' '}
                  <Anchor component={Link} to={paths.contact} fw={600}>
                    Contact Us
                  </Anchor>{' '}
                  if you think this is an error.
                </Text>
              ) : null}
            </>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
