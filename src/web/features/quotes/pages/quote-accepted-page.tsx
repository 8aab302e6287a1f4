import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconDownload, IconReceipt } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import type { ClientDocuments } from '#shared/schemas/quotes';
import { HomeAndContactButtons, MessagePage } from '../../../components/message-page';
import { useHydrated } from '../../../lib/use-hydrated';

type Documents = ClientDocuments & { checkoutError: string | null };

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * The documents the accept answer gave (kept in the history entry, so a reload keeps them), and why
 * paying the deposit online could not start, when "Accept and pay the deposit" was pressed.
 */
function documentsOf(state: unknown): Documents | null {
  const d = state as Partial<Record<keyof Documents, unknown>> | null;
  return d && typeof d.signedQuotePdf === 'string'
    ? {
        signedQuotePdf: d.signedQuotePdf,
        depositInvoice: text(d.depositInvoice),
        depositCheckout: text(d.depositCheckout),
        checkoutError: text(d.checkoutError),
      }
    : null;
}

/** After a yes: thanks, the signed quote's PDF and, when the quote asks a deposit, its invoice. */
export default function QuoteAcceptedPage() {
  const location = useLocation();
  // Only once hydrated: the server renders this page without the history entry's state.
  const documents = useHydrated() ? documentsOf(location.state) : null;
  return (
    <MessagePage
      title="Thank You!"
      icon={<IconCircleCheck size={34} />}
      color="green"
      actions={<HomeAndContactButtons />}
    >
      <Text size="lg">You have accepted the quote. We will reach out to schedule a time that works.</Text>
      {documents ? (
        <Stack gap="sm" w="100%" maw={360}>
          {documents.checkoutError ? (
            <Alert color="red" title="The card payment could not start" role="alert">
              {documents.checkoutError}. Your acceptance is recorded: pay the deposit from its invoice below.
            </Alert>
          ) : null}
          {documents.depositInvoice ? (
            <>
              <Text>Your deposit invoice is in your e-mail too: paying it books your work.</Text>
              <Button
                component={Link}
                to={documents.depositInvoice}
                leftSection={<IconReceipt size={18} aria-hidden />}
              >
                View your deposit invoice
              </Button>
            </>
          ) : null}
          <Button
            component="a"
            href={documents.signedQuotePdf}
            download
            variant={documents.depositInvoice ? 'default' : 'filled'}
            leftSection={<IconDownload size={18} aria-hidden />}
          >
            Download the signed quote
          </Button>
        </Stack>
      ) : null}
    </MessagePage>
  );
}
