import { billToLines, billToText } from '#shared/bill-to';
import { formatLongDate } from '#shared/dates';
import { HOW_TO_PAY_HEADING, howToPay } from '#shared/how-to-pay';
import { formatDollars } from '#shared/money';
import type { InvoiceView } from '#shared/schemas/invoices';
import type { BusinessSettings } from '../lib/business';
import { composeEmail, type Block, type OutgoingMail } from '../mail';

/** "How to pay" as e-mail blocks (nothing once nothing is owed). */
function howToPayBlocks(business: BusinessSettings, invoice: InvoiceView): Block[] {
  const lines = howToPay(business, invoice);
  if (lines.length === 0) return [];
  return [
    { kind: 'paragraph', text: `${HOW_TO_PAY_HEADING}:` },
    { kind: 'details', rows: lines.map((l): [string, string] => [l.label, l.text]) },
  ];
}

/** A commercial client's "Bill to" (company, person, billing address) and the property, as details rows. */
function billToRows(invoice: InvoiceView): [string, string][] {
  if (!invoice.companyName && !invoice.billingAddress) return [];
  const { service } = billToLines(invoice);
  return [
    ['Bill to', billToText(invoice).join(', ')],
    ...(service ? [['Service address', service] as [string, string]] : []),
  ];
}

/** An issued invoice's PDF as a stored document. */
export const invoiceKey = (id: string) => `invoice:${id}`;

/**
 * The invoice to the client: the amount, the due date, how to pay, the PDF and a link to see it on a
 * phone. A deposit's invoice (sent when the client accepts quote `forQuote`) says it is the deposit
 * that books the work.
 */
export function invoiceMail(
  business: BusinessSettings,
  invoice: InvoiceView,
  link: string,
  forQuote?: string,
): OutgoingMail {
  const deposit = invoice.kind === 'deposit';
  const title = deposit
    ? `Deposit invoice ${invoice.number}${forQuote ? ` for quote ${forQuote}` : ''}`
    : `Invoice ${invoice.number}`;
  const { html, text } = composeEmail({
    business,
    heading: title,
    blocks: [
      { kind: 'paragraph', text: `Hi ${invoice.clientName},` },
      {
        kind: 'paragraph',
        text: deposit
          ? `Thank you for accepting ${forQuote ? `quote ${forQuote}` : 'our quote'}. This is the deposit that books your work: once it is paid, we schedule the job with you. The invoice is attached and online:`
          : 'Thank you for your business. Your invoice is attached and online:',
      },
      { kind: 'emphasis', label: deposit ? 'Deposit due' : 'Balance due', value: formatDollars(invoice.balance) },
      {
        kind: 'details',
        rows: [
          ['Invoice No.', invoice.number ?? ''],
          ...(invoice.poNumber ? [['PO No.', invoice.poNumber] as [string, string]] : []),
          ['Due', invoice.dueDate ? formatLongDate(invoice.dueDate) : ''],
          ...billToRows(invoice),
        ],
      },
      ...howToPayBlocks(business, invoice),
      { kind: 'button', label: deposit ? 'View your deposit invoice' : 'View your invoice', href: link },
      { kind: 'paragraph', text: `Questions? Call us at ${business.phone}.` },
    ],
  });
  return {
    to: invoice.clientEmail,
    subject: deposit ? `${title} – ${business.name}` : `Invoice ${invoice.number} from ${business.name}`,
    html,
    text,
    // The stored PDF, read by the relay when it sends (decision 022).
    attachments: [
      { filename: `${invoice.number}.pdf`, contentType: 'application/pdf', document: invoiceKey(invoice._id) },
    ],
  };
}

/** A receipt for a payment, with what is left to pay. */
export function receiptMail(
  business: BusinessSettings,
  invoice: InvoiceView,
  payment: InvoiceView['payments'][number],
  link: string,
): OutgoingMail {
  // A refund is a negative payment (decision 035): its own words, the same figures.
  const refund = payment.amount < 0;
  const { html, text } = composeEmail({
    business,
    heading: refund ? 'Your refund' : 'Thank you for your payment',
    blocks: [
      { kind: 'paragraph', text: `Hi ${invoice.clientName},` },
      refund
        ? { kind: 'emphasis', label: 'Refunded', value: formatDollars(-payment.amount) }
        : { kind: 'emphasis', label: 'Received', value: formatDollars(payment.amount) },
      {
        kind: 'details',
        rows: [
          ['Invoice No.', invoice.number ?? ''],
          [refund ? 'Refunded on' : 'Paid on', formatLongDate(payment.paidOn)],
          ['Method', payment.method],
          ['Balance due', formatDollars(invoice.balance)],
        ],
      },
      {
        kind: 'paragraph',
        text: invoice.balance === 0 ? 'Your invoice is paid in full.' : 'The rest is due by the date on the invoice.',
      },
      ...howToPayBlocks(business, invoice),
      { kind: 'button', label: 'View your invoice', href: link },
    ],
  });
  return {
    to: invoice.clientEmail,
    subject: `${refund ? 'Refund' : 'Receipt'} for invoice ${invoice.number}`,
    html,
    text,
  };
}

/** A polite reminder of an unpaid invoice, some days after its due date (the link shows what is left). */
export function overdueReminderMail(business: BusinessSettings, invoice: InvoiceView, link: string): OutgoingMail {
  const { html, text } = composeEmail({
    business,
    heading: `A reminder about invoice ${invoice.number}`,
    blocks: [
      { kind: 'paragraph', text: `Hi ${invoice.clientName},` },
      {
        kind: 'paragraph',
        text: `Invoice ${invoice.number} was due on ${invoice.dueDate ? formatLongDate(invoice.dueDate) : 'its due date'} and still shows a balance. If you have paid it already, thank you, and please ignore this message.`,
      },
      ...howToPayBlocks(business, invoice),
      { kind: 'button', label: 'See what is left to pay', href: link },
      { kind: 'paragraph', text: `Questions? Call us at ${business.phone}.` },
    ],
  });
  return { to: invoice.clientEmail, subject: `Reminder: invoice ${invoice.number} from ${business.name}`, html, text };
}
