import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconFilePencil, IconMessageReply } from '@tabler/icons-react';
import { useState } from 'react';
import { formatLongDate } from '#shared/dates';
import { QUOTE_STATUS_LABELS, type QuoteView } from '#shared/schemas/quotes';
import type { QuoteRequestDetail } from '#shared/schemas/staff-quote-requests';
import { REVISABLE_QUOTE_STATUSES } from '#shared/statuses';
import { formatDateTime, timeAgo } from '../../../components/date-text';
import { QuoteLines } from '../../../components/quote-lines';
import { hasErrorCode } from '../../../lib/api-client';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useReplyToQuestion, useSentQuote } from '../api/quotes';
import { QuoteBuilder } from './quote-builder';

const colors = { Pending: 'yellow', Accepted: 'green', Declined: 'red', 'Requested More Info': 'blue' } as const;

/** The owner's answer to the client's question: e-mailed, kept in the timeline. */
function ReplyBox({ quote }: { quote: QuoteView }) {
  const reply = useReplyToQuestion(quote.quoteId);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string>();
  const send = () => {
    if (!message.trim()) {
      setError('Please write your answer');
      return;
    }
    reply.mutate(message.trim(), {
      onSuccess: () => {
        setMessage('');
        toast.success('Answer sent to the client');
      },
      onError: (e) => toast.error(hasErrorCode(e, 'NO_QUESTION') ? e.message : 'The answer could not be sent'),
    });
  };
  return (
    <Stack gap="xs" mb="md">
      <Textarea
        label="Your answer"
        description="E-mailed to the client with the link to their quote, which stays open for them to accept."
        withAsterisk
        autosize
        minRows={3}
        value={message}
        onChange={(e) => {
          setMessage(e.currentTarget.value);
          setError(undefined);
        }}
        error={error}
        maxLength={5000}
      />
      <Group justify="flex-end">
        <Button leftSection={<IconMessageReply size={18} aria-hidden />} onClick={send} loading={reply.isPending}>
          Send answer
        </Button>
      </Group>
    </Stack>
  );
}

/** Sent Quote: the current version, where it stands with the client, and the owner's next moves. */
export function SentQuote({ request }: { request: QuoteRequestDetail }) {
  const quote = useSentQuote(request._id, true);
  const [revising, setRevising] = useState(false);
  const zone = siteConfig().timeZone;
  if (revising && quote.data)
    return <QuoteBuilder request={request} revising={quote.data} onDone={() => setRevising(false)} />;
  const q = quote.data;
  const revisable = q ? (REVISABLE_QUOTE_STATUSES as readonly string[]).includes(q.status) : false;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mt="md">
      <Group justify="space-between" mb="md" gap="sm">
        <Title order={2} size="h3">
          Sent Quote{' '}
          {q ? (
            <Text span c="dimmed" ff="monospace" size="md">
              {q.quoteId}
            </Text>
          ) : null}
        </Title>
        {q ? (
          <Group gap="xs">
            {q.expired ? (
              <Badge size="lg" variant="light" color="orange" c="dark.7">
                Expired
              </Badge>
            ) : null}
            <Badge size="lg" variant="light" color={colors[q.status]} c="dark.7">
              {QUOTE_STATUS_LABELS[q.status]}
            </Badge>
          </Group>
        ) : null}
      </Group>
      {quote.isPending ? (
        <Skeleton h={160} />
      ) : quote.isError || !q ? (
        <Text c="dimmed">The sent quote could not be loaded.</Text>
      ) : (
        <>
          <Stack gap={2} mb="sm">
            <Text size="sm" c="dimmed">
              {q.projectName} for {q.clientName}
              {q.version > 1 ? `, version ${q.version}` : ''}, sent {formatDateTime(q.quoteDate, zone)}; valid until{' '}
              {formatLongDate(q.validUntil)}
            </Text>
            {q.poNumber ? <Text size="sm">PO No.: {q.poNumber}</Text> : null}
            {q.internalNotes ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                <b>Internal notes:</b> {q.internalNotes}
              </Text>
            ) : null}
            <Text size="sm" fw={600} title={q.openedAt ? formatDateTime(q.openedAt, zone) : undefined}>
              {q.openedAt ? `Opened ${timeAgo(q.openedAt)}` : 'Not opened yet'}
            </Text>
            {request.contactPerson.email ? null : (
              <Text size="sm" c="orange.9" fw={600}>
                Not e-mailed: there is no e-mail on file for this client.
              </Text>
            )}
          </Stack>
          {q.status === 'Accepted' && q.acceptedName ? (
            <Alert mb="md" color="green" title="Accepted by the client">
              Signed “{q.acceptedName}”{q.answeredAt ? ` on ${formatDateTime(q.answeredAt, zone)}` : ''}
              {q.acceptedIp ? ` from ${q.acceptedIp}` : ''}.
            </Alert>
          ) : q.clientMessage ? (
            <Alert
              mb="md"
              color={q.status === 'Declined' ? 'red' : 'blue'}
              title={
                q.status === 'Declined'
                  ? 'Reason given'
                  : q.status === 'Requested More Info'
                    ? 'The client asks'
                    : 'Last question from the client (answered)'
              }
            >
              <Text style={{ whiteSpace: 'pre-wrap' }}>{q.clientMessage}</Text>
            </Alert>
          ) : null}
          {q.status === 'Requested More Info' ? <ReplyBox quote={q} /> : null}
          <QuoteLines {...q} />
          {revisable ? (
            <Group justify="flex-end" mt="md">
              <Button
                variant={q.status === 'Pending' ? 'default' : 'filled'}
                leftSection={<IconFilePencil size={18} aria-hidden />}
                onClick={() => setRevising(true)}
              >
                Revise quote
              </Button>
            </Group>
          ) : null}
        </>
      )}
    </Paper>
  );
}
