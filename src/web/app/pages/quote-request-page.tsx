import { Box } from '@mantine/core';
import { ClientTexts } from '../../components/client-texts';
import AdminQuoteRequestPage from '../../features/quote-requests/pages/admin-detail-page';
import { QuoteBuilder } from '../../features/quotes/components/quote-builder';
import { SentQuote } from '../../features/quotes/components/sent-quote';
import { RequestJobLink } from '../../features/jobs/components/request-job-link';
import { RequestTimeline } from '../../features/activity/components/request-timeline';
import { RequestVisits } from '../../features/visits/components/job-visits';

/**
 * The request page composes the features built on a request: the request itself, its estimate visit
 * (booked online with it), its quote once accepted (built, then sent, discussed and revised), the job
 * a yes became, the request's activity and its texts to the client.
 */
export default function QuoteRequestPage() {
  return (
    <AdminQuoteRequestPage
      quoteSection={(request) => (
        <>
          <RequestVisits quoteRequestId={request._id} open={request.quoteStatus !== 'Declined'} />
          {request.quoteStatus === 'Accepted' ? (
            <QuoteBuilder request={request} />
          ) : request.quoteStatus === 'Quote Sent' ? (
            <>
              <RequestJobLink quoteRequestId={request._id} />
              <SentQuote request={request} />
            </>
          ) : null}
          <RequestTimeline quoteRequestId={request._id} />
          {request.clientId ? (
            <Box mt="md">
              <ClientTexts
                clientId={request.clientId}
                hasEmail={Boolean(request.contactPerson.email)}
                about={{ quoteRequestId: request._id }}
                title="Texts about this request"
              />
            </Box>
          ) : null}
        </>
      )}
    />
  );
}
