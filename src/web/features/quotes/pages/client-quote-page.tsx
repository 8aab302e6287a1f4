import { Alert, Button, Container, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconDownload, IconCircleCheck, IconCircleX, IconHelpCircle, IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../../../shared/paths';
import type { QuoteStatus } from '../../../../shared/constants';
import { QUOTE_TRANSITIONS } from '../../../../shared/statuses';
import { HomeAndContactButtons, MessagePage } from '../../../components/message-page';
import { ApiError, hasErrorCode } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAnswerQuote, useClientQuote } from '../api/quotes';
import { QuoteDocument } from '../components/quote-document';
import layout from '../../../components/layout.module.css';

type Mode = 'choose' | 'decline' | 'more-info';

function LinkProblem({ error }: { error: unknown }) {
  const message =
    error instanceof ApiError ? error.message : 'This quote could not be loaded. Please try again in a moment.';
  return (
    <MessagePage
      title={hasErrorCode(error, 'LINK_EXPIRED') ? 'This link has expired' : 'This link cannot be used'}
      icon={<IconLinkOff size={34} />}
      color="red"
      actions={<HomeAndContactButtons />}
    >
      <Text>{message}</Text>
    </MessagePage>
  );
}

/** The client's quote, from the e-mailed link: read it, then accept, decline, or ask a question. */
/** How the client's page names an answer already given, in words a client reads. */
const CLIENT_ANSWER_TITLES: Record<QuoteStatus, string> = {
  Pending: 'This quote is waiting for your answer',
  Accepted: 'You accepted this quote',
  Declined: 'You declined this quote',
  'Requested More Info': 'You asked us a question about this quote',
};

export default function ClientQuotePage() {
  usePageTitle('Your Quote');
  const { quoteId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const quote = useClientQuote(quoteId, token);
  const answer = useAnswerQuote(quoteId);
  const [mode, setMode] = useState<Mode>('choose');
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string>();
  const [asked, setAsked] = useState(false);

  if (quote.isPending) {
    return (
      <Container size={760} py={64}>
        <Text c="dimmed">Loading your quote…</Text>
      </Container>
    );
  }
  if (quote.isError) return <LinkProblem error={quote.error} />;
  if (answer.isError && answer.error instanceof ApiError && answer.error.status !== 400)
    return <LinkProblem error={answer.error} />;

  const q = quote.data;
  const respond = (body: Parameters<typeof answer.mutate>[0], onDone: () => void) =>
    answer.mutate(body, { onSuccess: onDone });

  const accept = () => respond({ action: 'accept', token }, () => navigate(paths.quoteAccepted));
  const decline = () =>
    respond({ action: 'decline', token, reason: text.trim() || undefined }, () => navigate(paths.quoteDeclined));
  const ask = () => {
    if (!text.trim()) {
      setTextError('Please write your question');
      return;
    }
    respond({ action: 'more-info', token, message: text.trim() }, () => setAsked(true));
  };

  // Answerable while the workflow lets the quote move on from where it is (shared/statuses.ts).
  const answered = QUOTE_TRANSITIONS[q.status].length === 0 || asked;
  return (
    <Container size={760} className={layout.pagePad}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Title order={1}>Your Quote</Title>
            <Text c="dimmed">Please review the quote below, then let us know.</Text>
          </div>
          <Button
            component="a"
            href={`/api/client-quotes/${encodeURIComponent(quoteId)}/pdf?token=${encodeURIComponent(token)}`}
            download={`Quote-${q.quoteId}.pdf`}
            variant="default"
            leftSection={<IconDownload size={18} aria-hidden />}
          >
            Download PDF
          </Button>
        </Group>
        <QuoteDocument {...q} date={q.quoteDate} />
        {asked ? (
          <Alert
            color="blue"
            icon={<IconHelpCircle aria-hidden />}
            title="Thanks, we received your question"
            role="status"
          >
            We will get back to you soon. You can still come back to this page later.
          </Alert>
        ) : answered ? (
          <Alert
            color={q.status === 'Accepted' ? 'green' : q.status === 'Declined' ? 'gray' : 'blue'}
            title={CLIENT_ANSWER_TITLES[q.status]}
          >
            It has already been answered. Please contact us at {q.business.phone} if anything has changed.
          </Alert>
        ) : (
          <Paper withBorder radius="lg" className={layout.cardPad}>
            {mode === 'choose' ? (
              <Stack>
                <Title order={2} size="h4">
                  What would you like to do?
                </Title>
                <Group>
                  <Button
                    color="success"
                    size="md"
                    leftSection={<IconCircleCheck size={20} aria-hidden />}
                    onClick={accept}
                    loading={answer.isPending}
                  >
                    Accept the quote
                  </Button>
                  <Button
                    variant="outline"
                    color="red.9"
                    size="md"
                    leftSection={<IconCircleX size={20} aria-hidden />}
                    onClick={() => setMode('decline')}
                    disabled={answer.isPending}
                  >
                    Decline
                  </Button>
                  <Button
                    variant="subtle"
                    size="md"
                    leftSection={<IconHelpCircle size={20} aria-hidden />}
                    onClick={() => setMode('more-info')}
                    disabled={answer.isPending}
                  >
                    Request more info
                  </Button>
                </Group>
              </Stack>
            ) : (
              <Stack>
                <Textarea
                  label={mode === 'decline' ? 'Why are you declining? (optional)' : 'Your question'}
                  withAsterisk={mode === 'more-info'}
                  autosize
                  minRows={3}
                  value={text}
                  onChange={(e) => {
                    setText(e.currentTarget.value);
                    setTextError(undefined);
                  }}
                  error={textError}
                  data-autofocus
                />
                <Group>
                  <Button
                    color={mode === 'decline' ? 'red.9' : 'brand'}
                    onClick={mode === 'decline' ? decline : ask}
                    loading={answer.isPending}
                  >
                    {mode === 'decline' ? 'Decline the quote' : 'Send my question'}
                  </Button>
                  <Button variant="default" onClick={() => setMode('choose')} disabled={answer.isPending}>
                    Back
                  </Button>
                </Group>
              </Stack>
            )}
          </Paper>
        )}
      </Stack>
    </Container>
  );
}
