import AdminQuoteRequestPage from '../../features/quote-requests/pages/admin-detail-page';
import { QuoteBuilder } from '../../features/quotes/components/quote-builder';
import { SentQuote } from '../../features/quotes/components/sent-quote';
import { RequestJobLink } from '../../features/jobs/components/request-job-link';

/** The request page composes three features: the request itself, its quote once accepted, and the job a yes became. */
export default function QuoteRequestPage() {
  return (
    <AdminQuoteRequestPage
      quoteSection={(request) =>
        request.quoteStatus === 'Accepted' ? (
          <QuoteBuilder request={request} />
        ) : request.quoteStatus === 'Quote Sent' ? (
          <>
            <RequestJobLink quoteRequestId={request._id} />
            <SentQuote quoteRequestId={request._id} />
          </>
        ) : null
      }
    />
  );
}
