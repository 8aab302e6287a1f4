import { quoteClientRows } from '#shared/bill-to';
import { formatLongDate } from '#shared/dates';
import { formatDollars, laborDetail, totalsRows } from '#shared/money';
import { paths } from '#shared/paths';
import type { QuoteView } from '#shared/schemas/quotes';
import type { Config } from '../config';
import type { MailAttachment } from '../db/schema';
import type { BusinessSettings } from '../lib/business';
import { composeEmail, type Block, type OutgoingMail, type PricedRow } from '../mail';

/** Once accepted, only the chosen lines; before, every line, the optional ones marked. Then the totals. */
function lineRows(quote: QuoteView): PricedRow[] {
  const accepted = quote.status === 'Accepted';
  const mark = (line: { optional: boolean }) => (line.optional && !accepted ? ' (optional)' : '');
  return [
    ...quote.materials
      .filter((m) => !accepted || m.included)
      .map((m) => ({
        label: `${m.name}${mark(m)}`,
        detail: `${m.quantity} × ${formatDollars(m.unitPrice)}`,
        amount: formatDollars(m.subtotal),
      })),
    ...quote.labor
      .filter((l) => !accepted || l.included)
      .map((l) => ({
        label: `${l.description ? `Labor: ${l.description}` : 'Labor'}${mark(l)}`,
        detail: laborDetail(l),
        amount: formatDollars(l.total),
      })),
    ...totalsRows(quote).map((row) => ({ label: row.label, amount: formatDollars(row.amount), strong: row.emphasis })),
  ];
}

/** A quote version's PDF as a stored document. */
export const quoteKey = (quoteId: string) => `quote:${quoteId}`;

/** The quote's stored PDF, read by the relay when it sends (decision 022). */
export const pdfAttachment = (quote: QuoteView): MailAttachment => ({
  filename: `Quote-${quote.quoteId}.pdf`,
  contentType: 'application/pdf',
  document: quoteKey(quote.quoteId),
});

const hasOptional = (quote: QuoteView) => [...quote.materials, ...quote.labor].some((l) => l.optional);

/** The quote (or a revised version of it) to the client: lines, totals, the PDF, and the link to answer it. */
export function quoteMail(business: BusinessSettings, to: string, quote: QuoteView, link: string): OutgoingMail {
  const revised = quote.version > 1;
  const { html, text } = composeEmail({
    business,
    heading: revised ? `Your updated quote for ${quote.projectName}` : `Your quote for ${quote.projectName}`,
    blocks: [
      { kind: 'paragraph', text: `Hi ${quote.clientName},` },
      {
        kind: 'paragraph',
        text: revised
          ? 'We have updated your quote; the PDF copy is attached. It replaces the one we sent before.'
          : 'Thank you for your patience. Here is our quote; the PDF copy is attached.',
      },
      { kind: 'emphasis', label: 'Quote No.', value: quote.quoteId },
      ...(quote.poNumber ? [{ kind: 'emphasis' as const, label: 'PO No.', value: quote.poNumber }] : []),
      // A commercial client's quote says whom it is for: the company, where bills go, the property.
      ...(quote.companyName || quote.billingAddress
        ? [{ kind: 'details' as const, rows: quoteClientRows(quote) }]
        : []),
      { kind: 'lines', rows: lineRows(quote) },
      ...(quote.notes ? [{ kind: 'paragraph' as const, text: `Notes: ${quote.notes}` }] : []),
      ...(hasOptional(quote)
        ? [
            {
              kind: 'paragraph' as const,
              text: 'Lines marked optional are not in the total: choose the ones you want on the quote’s page.',
            },
          ]
        : []),
      ...(quote.deposit
        ? [
            {
              kind: 'paragraph' as const,
              text: `A deposit of ${formatDollars(quote.deposit.due)} is due when you accept; we will e-mail you its invoice.`,
            },
          ]
        : []),
      { kind: 'paragraph', text: 'You can accept it, decline it, or ask us a question on its page:' },
      { kind: 'button', label: 'View and answer your quote', href: link },
      {
        kind: 'paragraph',
        text: `This quote is valid until ${formatLongDate(quote.validUntil)}. Questions? Call us at ${business.phone}.`,
      },
    ],
  });
  return {
    to,
    subject: revised
      ? `Your updated quote ${quote.quoteId} from ${business.name}`
      : `Your quote ${quote.quoteId} from ${business.name}`,
    html,
    text,
    attachments: [pdfAttachment(quote)],
  };
}

/** A polite nudge about a quote the client has not answered. */
export function quoteReminderMail(
  business: BusinessSettings,
  to: string,
  quote: QuoteView,
  link: string,
): OutgoingMail {
  const { html, text } = composeEmail({
    business,
    heading: `A reminder about your quote for ${quote.projectName}`,
    blocks: [
      { kind: 'paragraph', text: `Hi ${quote.clientName},` },
      {
        kind: 'paragraph',
        text: `Just checking in: your quote ${quote.quoteId} (${formatDollars(quote.totalCostAfterTax)}) is waiting for you. If anything is unclear or you would like something changed, ask us on its page and we will answer.`,
      },
      { kind: 'button', label: 'View your quote', href: link },
      {
        kind: 'paragraph',
        text: `It is valid until ${formatLongDate(quote.validUntil)}. No longer interested? You can decline it there, and we will not write again about it.`,
      },
    ],
  });
  return { to, subject: `Reminder: your quote ${quote.quoteId} from ${business.name}`, html, text };
}

/** The owner's answer to the client's question. */
export function quoteReplyMail(
  business: BusinessSettings,
  to: string,
  quote: QuoteView,
  message: string,
  link: string,
): OutgoingMail {
  const { html, text } = composeEmail({
    business,
    heading: `About your quote ${quote.quoteId}`,
    blocks: [
      { kind: 'paragraph', text: `Hi ${quote.clientName},` },
      { kind: 'paragraph', text: 'Thank you for your question. Here is our answer:' },
      { kind: 'preformatted', text: message },
      { kind: 'paragraph', text: 'Your quote is still open: you can accept it, decline it, or ask again.' },
      { kind: 'button', label: 'View your quote', href: link },
    ],
  });
  return { to, subject: `Re: your quote ${quote.quoteId} from ${business.name}`, html, text };
}

/** To the client after accepting: the signed acceptance, with the PDF that prints it. */
export function quoteAcceptedMail(business: BusinessSettings, to: string, quote: QuoteView): OutgoingMail {
  const { html, text } = composeEmail({
    business,
    heading: `Thank you: quote ${quote.quoteId} accepted`,
    blocks: [
      { kind: 'paragraph', text: `Hi ${quote.clientName},` },
      {
        kind: 'paragraph',
        text: 'Thank you for choosing us. We have your acceptance and will be in touch to schedule the work. The accepted quote is attached.',
      },
      { kind: 'lines', rows: lineRows(quote) },
      { kind: 'details', rows: [['Accepted by', acceptanceLine(quote, business.timeZone)]] },
    ],
  });
  return {
    to,
    subject: `Quote ${quote.quoteId} accepted – ${business.name}`,
    html,
    text,
    attachments: [pdfAttachment(quote)],
  };
}

/** "Jane Client, November 22, 2026, 9:14 AM PST": the acceptance as the e-mail and PDF print it. */
export function acceptanceLine(quote: QuoteView, timeZone: string): string {
  const when = quote.answeredAt
    ? new Date(quote.answeredAt).toLocaleString('en-US', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZone,
        timeZoneName: 'short',
      })
    : '';
  return [quote.acceptedName ?? '', when].filter(Boolean).join(', ');
}

export type NoticeKind = 'accept' | 'decline' | 'more-info' | 'update-request';
const noticeWords: Record<NoticeKind, string> = {
  accept: 'accepted',
  decline: 'declined',
  'more-info': 'has a question about',
  'update-request': 'asks for an updated',
};
const noticeSubjects: Record<NoticeKind, (q: QuoteView) => string> = {
  accept: (q) => `Quote ${q.quoteId} accepted by ${q.clientName}`,
  decline: (q) => `Quote ${q.quoteId} declined by ${q.clientName}`,
  'more-info': (q) => `Question about quote ${q.quoteId} from ${q.clientName}`,
  'update-request': (q) => `${q.clientName} asks for an updated quote (${q.quoteId} expired)`,
};

/** To the owner when a client answers a quote, or asks for an updated one after it expired. */
export function quoteAnswerNotice(
  config: Config,
  business: BusinessSettings,
  quote: QuoteView,
  kind: NoticeKind,
  message: string | undefined,
  jobId?: string,
): OutgoingMail {
  const blocks: Block[] = [
    {
      kind: 'details',
      rows: [
        ['Client', quote.clientName],
        ['Project', quote.projectName],
        ['Total', formatDollars(quote.totalCostAfterTax)],
        ...(kind === 'accept' ? [['Accepted by', acceptanceLine(quote, business.timeZone)] as [string, string]] : []),
      ],
    },
    ...(message ? [{ kind: 'preformatted' as const, text: message }] : []),
    ...(jobId
      ? [
          { kind: 'paragraph' as const, text: 'A job was created and is waiting for a crew.' },
          { kind: 'button' as const, label: 'Open the job', href: `${config.PUBLIC_URL}${paths.admin.job(jobId)}` },
        ]
      : []),
    {
      kind: 'button',
      label: kind === 'more-info' ? 'Answer on the request page' : 'Open the request',
      href: `${config.PUBLIC_URL}${paths.admin.quoteRequest(quote.quoteRequestId)}`,
    },
  ];
  const { html, text } = composeEmail({
    business,
    heading: `${quote.clientName} ${noticeWords[kind]} quote ${quote.quoteId}`,
    blocks,
  });
  return { to: business.ownerEmail, subject: noticeSubjects[kind](quote), html, text };
}
