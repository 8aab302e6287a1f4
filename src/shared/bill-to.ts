// Who a document is for, in one place for the pages, the e-mails and the PDFs (decision 037).

/** An invoice's party: the person, their company ('' for a household), where bills go ('' = the property) and the property. */
export interface InvoiceParty {
  clientName: string;
  companyName: string;
  billingAddress: string;
  address: string;
}

/**
 * The invoice's "Bill to" block: the company first when there is one, the person, then where the bill
 * goes. The property the work was at follows as "Service address" only when the bill goes elsewhere.
 */
export function billToLines(party: InvoiceParty): { name: string; company: string; mailTo: string; service: string } {
  return {
    company: party.companyName,
    name: party.clientName,
    mailTo: party.billingAddress || party.address,
    service: party.billingAddress ? party.address : '',
  };
}

/** The same block as plain lines (a PDF, an e-mail's row). */
export const billToText = (party: InvoiceParty): string[] => {
  const b = billToLines(party);
  return [b.company, b.name, b.mailTo].filter(Boolean);
};

/** A quote's party: the client's name and, as sent, their company, billing address and the property. */
export interface QuoteParty {
  clientName: string;
  companyName: string;
  billingAddress: string;
  serviceAddress: string;
}

/** The quote's client block as label and value rows; empty values are left out. */
export function quoteClientRows(party: QuoteParty): [label: string, value: string][] {
  const rows: [string, string][] = [
    ['Client', party.clientName],
    ['Company', party.companyName],
    ['Billing address', party.billingAddress],
    ['Service address', party.serviceAddress],
  ];
  return rows.filter(([label, value]) => label === 'Client' || value !== '');
}
