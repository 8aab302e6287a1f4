import type { InvoiceKind } from '#shared/constants';
import { Alert, Button, Text } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { formatDollars } from '#shared/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { publicApi } from '../../../lib/api-client';
import { useCheckout } from '../../../lib/checkout';

// Paying online (decision 035): the client's Pay on their invoice link, and the office's refunds.

type OnlineState = { available: boolean; processing: number };
type ReturnState = { state: 'open' | 'processing' | 'paid' | 'expired' | 'unknown' };

const clientPath = (id: string, token: string, rest: string) =>
  `/client-invoices/${encodeURIComponent(id)}${rest}?token=${encodeURIComponent(token)}`;

function useOnlinePayment(id: string, token: string) {
  return useQuery({
    queryKey: ['client-invoice', id, token, 'online'],
    queryFn: () => publicApi<OnlineState>('GET', clientPath(id, token, '/online-payment')),
    retry: false,
  });
}

/** Back from the hosted page: the server asks the provider before the page says "Paid". */
function useCheckoutReturn(id: string, token: string, sessionId: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['client-invoice-return', id, token, sessionId],
    enabled: Boolean(sessionId),
    queryFn: async () => {
      const result = await publicApi<ReturnState>('POST', clientPath(id, token, '/checkout/return'), {
        body: { sessionId },
      });
      await queryClient.invalidateQueries({ queryKey: ['client-invoice', id, token] });
      return result;
    },
    retry: false,
    staleTime: Infinity,
  });
}

/**
 * The client's Pay on their invoice (decision 035): to the provider's hosted page for the balance, and
 * back with what the server learnt from the provider (never from the address alone).
 */
export function PayOnline(props: {
  id: string;
  token: string;
  kind: InvoiceKind;
  balance: number;
  checkout: string | null;
}) {
  const { id, token, kind, balance, checkout } = props;
  const online = useOnlinePayment(id, token);
  const start = useCheckout();
  const sessionId = checkout && checkout !== 'cancelled' ? checkout : null;
  const back = useCheckoutReturn(id, token, sessionId);
  const state = back.data?.state;
  const what = kind === 'deposit' ? 'Deposit' : 'Invoice';
  return (
    <>
      {state === 'paid' ? (
        <Alert color="green" title={`${what} paid`} role="status">
          Thank you: your card payment was received. A receipt is on its way by e-mail.
        </Alert>
      ) : null}
      {state === 'processing' || (online.data?.processing ?? 0) > 0 ? (
        <Alert color="blue" title="Payment processing" role="status">
          {online.data?.processing ? `${formatDollars(online.data.processing)} ` : 'Your payment '}
          is on its way from your bank. It counts once it clears, usually within a few days.
        </Alert>
      ) : null}
      {checkout === 'cancelled' || state === 'open' ? (
        <Alert color="gray" title="Not paid" role="status">
          The payment was not completed: nothing was charged.
        </Alert>
      ) : null}
      {online.data?.available && balance > 0 ? (
        <>
          <Button
            size="lg"
            leftSection={<IconCreditCard size={20} aria-hidden />}
            loading={start.isPending}
            onClick={() => start.mutate(clientPath(id, token, '/checkout'))}
          >
            {kind === 'deposit' ? `Pay the deposit of ${formatDollars(balance)}` : `Pay ${formatDollars(balance)}`}
          </Button>
          <Text size="xs" c="dimmed">
            By card, Apple Pay or Google Pay on Stripe’s secure page; we never see your card.
          </Text>
        </>
      ) : null}
      {start.isError ? (
        <Alert color="red" title="The payment could not start" role="alert">
          {start.error.message}. Please try again in a moment, or pay one of the ways below.
        </Alert>
      ) : null}
    </>
  );
}
