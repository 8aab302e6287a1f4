import { Alert, Badge, Group, Paper, Skeleton, Text, Title } from '@mantine/core';
import { QUOTE_STATUS_LABELS } from '../../../../shared/schemas/quotes';
import { QuoteLines } from '../../../components/quote-lines';
import { useSentQuote } from '../api/quotes';

const colors = { Pending: 'yellow', Accepted: 'green', Declined: 'red', 'Requested More Info': 'blue' } as const;

/** Sent Quote: what went to the client, and the client's answer. */
export function SentQuote({ quoteRequestId }: { quoteRequestId: string }) {
  const quote = useSentQuote(quoteRequestId, true);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mt="md">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h3">
          Sent Quote{' '}
          {quote.data ? (
            <Text span c="dimmed" ff="monospace" size="md">
              {quote.data.quoteId}
            </Text>
          ) : null}
        </Title>
        {quote.data ? (
          <Badge size="lg" variant="light" color={colors[quote.data.status]} c="dark.7">
            {QUOTE_STATUS_LABELS[quote.data.status]}
          </Badge>
        ) : null}
      </Group>
      {quote.isPending ? (
        <Skeleton h={160} />
      ) : quote.isError ? (
        <Text c="dimmed">The sent quote could not be loaded.</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" mb="sm">
            {quote.data.projectName} for {quote.data.clientName}, sent{' '}
            {new Date(quote.data.quoteDate).toLocaleDateString('en-US', { dateStyle: 'medium' })}
          </Text>
          {quote.data.clientMessage ? (
            <Alert
              mb="md"
              color={quote.data.status === 'Declined' ? 'red' : 'blue'}
              title={quote.data.status === 'Declined' ? 'Reason given' : 'Message from the client'}
            >
              <Text style={{ whiteSpace: 'pre-wrap' }}>{quote.data.clientMessage}</Text>
            </Alert>
          ) : null}
          <QuoteLines {...quote.data} />
        </>
      )}
    </Paper>
  );
}
