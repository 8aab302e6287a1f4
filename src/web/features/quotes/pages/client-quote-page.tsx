import { Alert, Button, Container, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import {
  IconCircleCheck,
  IconCircleX,
  IconClockExclamation,
  IconDownload,
  IconHelpCircle,
  IconLinkOff,
  IconRefresh,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { formatLongDate } from '#shared/dates';
import { depositParts, formatDollars, formatMoney, priceQuote, quoteBase, withChoices } from '#shared/money';
import { paths } from '#shared/paths';
import type { QuoteStatus } from '#shared/constants';
import type { ClientAnswerResult, ClientQuoteView } from '#shared/schemas/quotes';
import { QUOTE_TRANSITIONS } from '#shared/statuses';
import { HomeAndContactButtons, MessagePage } from '../../../components/message-page';
import { ApiError, hasErrorCode } from '../../../lib/api-client';
import { useCheckout } from '../../../lib/checkout';
import { siteConfig } from '../../../lib/site-config';
import { useHydrated } from '../../../lib/use-hydrated';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAnswerQuote, useClientQuote, useNoteQuoteOpened, useRequestUpdate } from '../api/quotes';
import { QuoteDocument, type LineKind } from '../components/quote-document';
import layout from '../../../components/layout.module.css';

type Mode = 'choose' | 'accept' | 'decline' | 'more-info';

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

/** An old version's link: where the newest one is. */
function Replaced({ quote }: { quote: ClientQuoteView }) {
  const next = new URL(quote.replacedBy!.link, siteConfig().publicUrl);
  return (
    <MessagePage
      title="This quote was replaced by a newer version"
      icon={<IconRefresh size={34} />}
      color="blue"
      actions={
        <Button component={Link} to={`${next.pathname}${next.search}`} size="md">
          Open quote {quote.replacedBy!.quoteId}
        </Button>
      }
    >
      <Text>
        We updated quote {quote.quoteId}. Please read and answer the newest version; this one can no longer be accepted.
      </Text>
    </MessagePage>
  );
}

/** How the client's page names an answer already given, in words a client reads. */
const CLIENT_ANSWER_TITLES: Record<QuoteStatus, string> = {
  Pending: 'This quote is waiting for your answer',
  Accepted: 'You accepted this quote',
  Declined: 'You declined this quote',
  'Requested More Info': 'You asked us a question about this quote',
};

/** The expired quote's offer: ask the owner for an updated one. */
function Expired({ quote, token }: { quote: ClientQuoteView; token: string }) {
  const request = useRequestUpdate(quote.quoteId);
  // Its button does nothing until the app has taken over the page the server sent: disabled till then.
  const hydrated = useHydrated();
  const asked = quote.updateRequested || request.isSuccess;
  return (
    <Alert color="orange.9" icon={<IconClockExclamation aria-hidden />} title="This quote has expired">
      <Stack gap="sm">
        <Text size="sm">
          It was valid until {formatLongDate(quote.validUntil)}. Prices and schedules may have changed since.
        </Text>
        {asked ? (
          <Text size="sm" fw={600} role="status">
            Thanks, we have your request and will send you an updated quote.
          </Text>
        ) : (
          <Group>
            <Button onClick={() => request.mutate(token)} loading={request.isPending} disabled={!hydrated}>
              Ask for an updated quote
            </Button>
          </Group>
        )}
        {request.isError ? (
          <Text size="sm" c="red.9" role="alert">
            {request.error instanceof ApiError ? request.error.message : 'Something went wrong, please try again'}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** The client's quote, from the e-mailed link: read it, choose options, then accept with their name, decline, or ask. */
export default function ClientQuotePage() {
  usePageTitle('Your Quote');
  const { quoteId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const quote = useClientQuote(quoteId, token);
  useNoteQuoteOpened(quoteId, token, quote.isSuccess && !quote.data.replacedBy);

  if (quote.isPending) {
    return (
      <Container size={760} py={64}>
        <Text c="dimmed">Loading your quote…</Text>
      </Container>
    );
  }
  if (quote.isError) return <LinkProblem error={quote.error} />;
  const q = quote.data;
  if (q.replacedBy) return <Replaced quote={q} />;
  return <ClientQuoteSheet quote={q} token={token} onStale={() => void quote.refetch()} />;
}

interface ClientQuoteSheetProps {
  quote: ClientQuoteView;
  /** The signed link's token (empty in the office's preview). */
  token: string;
  /** Read the quote again (after an answer, or when it was replaced or expired meanwhile). */
  onStale: () => void;
  /**
   * The office's Preview in the Quote Builder: the same page, its buttons shown but inert, nothing
   * answered or downloaded (the quote is not sent yet).
   */
  preview?: boolean;
}

/** The client's quote page once its quote is read: what the client sees and answers (and the office previews). */
export function ClientQuoteSheet({ quote: q, token, onStale, preview = false }: ClientQuoteSheetProps) {
  const quoteId = q.quoteId;
  const navigate = useNavigate();
  const answer = useAnswerQuote(quoteId);
  const checkout = useCheckout();
  // The page arrives rendered by the server: its buttons act once the app has taken it over, so they are
  // disabled till then rather than dead to a tap (a slow phone, or a busy one).
  const hydrated = useHydrated();
  const [mode, setMode] = useState<Mode>('choose');
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string>();
  const [signature, setSignature] = useState('');
  const [signatureError, setSignatureError] = useState<string>();
  const [asked, setAsked] = useState(false);
  const [chosen, setChosen] = useState<{ materials: number[]; labor: number[] }>({ materials: [], labor: [] });

  // Replaced or expired meanwhile: the page shows it after reading the quote again.
  const stale = hasErrorCode(answer.error, 'QUOTE_REPLACED') || hasErrorCode(answer.error, 'QUOTE_EXPIRED');
  if (answer.isError && answer.error instanceof ApiError && answer.error.status !== 400 && !stale)
    return <LinkProblem error={answer.error} />;

  const open = QUOTE_TRANSITIONS[q.status].length > 0 && !q.expired;
  // The live totals: the shared money module prices exactly what the server will store.
  const shown = open
    ? { ...q, ...priceQuote(withChoices(q, chosen).materials, withChoices(q, chosen).labor, q.taxRateBasisPoints) }
    : q;
  const toggle = (kind: LineKind, index: number, included: boolean) =>
    setChosen((c) => ({
      ...c,
      [kind]: included ? [...c[kind].filter((i) => i !== index), index] : c[kind].filter((i) => i !== index),
    }));
  const hasOptions = [...q.materials, ...q.labor].some((l) => l.optional);
  // The deposit on the totals shown, by the rule the server invoices it with.
  const depositDueCents =
    open && q.deposit ? depositParts(quoteBase(shown), shown.taxRateBasisPoints, q.deposit).dueCents : null;
  // The business takes deposits online: one press accepts and goes on to pay it (decision 035).
  const payDeposit = depositDueCents !== null && q.depositOnline;

  const respond = (body: Parameters<typeof answer.mutate>[0], onDone: (result: ClientAnswerResult) => void) =>
    preview ||
    answer.mutate(body, {
      onSuccess: onDone,
      onError: (error) => {
        if (hasErrorCode(error, 'QUOTE_REPLACED') || hasErrorCode(error, 'QUOTE_EXPIRED')) onStale();
      },
    });
  const accept = () => {
    if (signature.trim().length < 2) {
      setSignatureError('Please type your full name to accept');
      return;
    }
    respond({ action: 'accept', token, signatureName: signature.trim(), selection: chosen }, (result) => {
      const documents = result.documents;
      if (!payDeposit || !documents?.depositCheckout) return navigate(paths.quoteAccepted, { state: documents });
      // Accepted; now to the provider's page for the deposit. Should that not start, the thank-you page
      // says so and offers the deposit invoice (where Pay is) instead.
      checkout.mutate(documents.depositCheckout, {
        onError: (error) => navigate(paths.quoteAccepted, { state: { ...documents, checkoutError: error.message } }),
      });
    });
  };
  const decline = () =>
    respond({ action: 'decline', token, reason: text.trim() || undefined }, () => navigate(paths.quoteDeclined));
  const ask = () => {
    if (!text.trim()) {
      setTextError('Please write your question');
      return;
    }
    respond({ action: 'more-info', token, message: text.trim() }, () => {
      setAsked(true);
      setText('');
      setMode('choose');
      onStale();
    });
  };
  const fieldError = answer.error instanceof ApiError && answer.error.status === 400 ? answer.error.message : undefined;

  return (
    <Container size={760} className={layout.pagePad}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Title order={1}>Your Quote</Title>
            <Text c="dimmed">
              {open
                ? hasOptions
                  ? 'Please review the quote below, tick the options you would like, then let us know.'
                  : 'Please review the quote below, then let us know.'
                : 'Here is your quote.'}
            </Text>
          </div>
          <Button
            component="a"
            href={
              preview
                ? undefined
                : `/api/client-quotes/${encodeURIComponent(quoteId)}/pdf?token=${encodeURIComponent(token)}`
            }
            data-disabled={preview || undefined}
            onClick={preview ? (e: React.MouseEvent) => e.preventDefault() : undefined}
            download={`Quote-${q.quoteId}.pdf`}
            variant="default"
            leftSection={<IconDownload size={18} aria-hidden />}
          >
            Download PDF
          </Button>
        </Group>
        <QuoteDocument
          {...shown}
          date={q.quoteDate}
          validUntil={q.validUntil}
          notes={q.notes}
          poNumber={q.poNumber}
          onToggle={open && mode !== 'accept' ? toggle : undefined}
          togglesDisabled={!hydrated}
          includedOnly={q.status === 'Accepted'}
          depositDueCents={depositDueCents}
        />
        {q.expired ? (
          <Expired quote={q} token={token} />
        ) : !open ? (
          <Alert color={q.status === 'Accepted' ? 'green' : 'gray'} title={CLIENT_ANSWER_TITLES[q.status]}>
            {q.status === 'Accepted' && q.acceptedName ? `Accepted by ${q.acceptedName}. ` : null}
            Please contact us at {q.business.phone} if anything has changed.
          </Alert>
        ) : (
          <>
            {asked || q.status === 'Requested More Info' ? (
              <Alert
                color="blue"
                icon={<IconHelpCircle aria-hidden />}
                title={asked ? 'Thanks, we received your question' : CLIENT_ANSWER_TITLES[q.status]}
                role="status"
              >
                We will answer by e-mail soon. The quote stays open: you can still accept or decline it here.
              </Alert>
            ) : null}
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
                      onClick={() => setMode('accept')}
                      disabled={answer.isPending || !hydrated}
                    >
                      Accept the quote
                    </Button>
                    <Button
                      variant="outline"
                      color="red.9"
                      size="md"
                      leftSection={<IconCircleX size={20} aria-hidden />}
                      onClick={() => setMode('decline')}
                      disabled={answer.isPending || !hydrated}
                    >
                      Decline
                    </Button>
                    <Button
                      variant="subtle"
                      size="md"
                      leftSection={<IconHelpCircle size={20} aria-hidden />}
                      onClick={() => setMode('more-info')}
                      disabled={answer.isPending || !hydrated}
                    >
                      Request more info
                    </Button>
                  </Group>
                </Stack>
              ) : mode === 'accept' ? (
                <Stack>
                  <Title order={2} size="h4">
                    Accept for {formatDollars(shown.totalCostAfterTax)}
                  </Title>
                  {depositDueCents !== null ? (
                    <Text size="sm" fw={600}>
                      {payDeposit
                        ? `A deposit of ${formatMoney(depositDueCents)} is due when you accept: you pay it next, by card on Stripe’s secure page.`
                        : `A deposit of ${formatMoney(depositDueCents)} is due when you accept: we e-mail you its invoice.`}
                    </Text>
                  ) : null}
                  <Text size="sm">
                    Type your full name to sign: it is recorded with the date and time and printed on the PDF we e-mail
                    you.
                  </Text>
                  <TextInput
                    label="Your full name"
                    withAsterisk
                    autoComplete="name"
                    value={signature}
                    onChange={(e) => {
                      setSignature(e.currentTarget.value);
                      setSignatureError(undefined);
                    }}
                    error={signatureError ?? fieldError}
                    data-autofocus
                    maxLength={120}
                  />
                  <Group>
                    <Button color="success" onClick={accept} loading={answer.isPending || checkout.isPending}>
                      {payDeposit ? 'Accept and pay the deposit' : 'Accept and sign'}
                    </Button>
                    <Button
                      variant="default"
                      onClick={() => setMode('choose')}
                      disabled={answer.isPending || checkout.isPending}
                    >
                      Back
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
                    error={textError ?? fieldError}
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
          </>
        )}
      </Stack>
    </Container>
  );
}
