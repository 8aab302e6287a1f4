import AdminQuoteRequestPage from '../../features/quote-requests/pages/admin-detail-page';
import { QuoteBuilder } from '../../features/quotes/components/quote-builder';
import { SentQuote } from '../../features/quotes/components/sent-quote';

/** The request page composes two features: the request itself, then its quote once accepted. */
export default function QuoteRequestPage() {
  return (
    <AdminQuoteRequestPage
      quoteSection={(request) =>
        request.quoteStatus === 'Accepted' ? (
          <QuoteBuilder request={request} />
        ) : request.quoteStatus === 'Quote Sent' ? (
          <SentQuote quoteRequestId={request._id} />
        ) : null
      }
    />
  );
}
