import { formatMoney, toCents, totalsRows } from '../../shared/money';
import { paths } from '../../shared/paths';
import type { QuoteView } from '../../shared/schemas/quotes';
import type { Config } from '../config';
import type { MailAttachment } from '../db/schema';
import type { BusinessSettings } from '../lib/business';
import { composeEmail, type OutgoingMail } from '../mail';

const money = (dollars: number) => formatMoney(toCents(dollars));

function lineRows(quote: QuoteView): [string, string][] {
  return [
    ...quote.materials.map((m): [string, string] => [
      m.name,
      `${m.quantity} × ${money(m.unitPrice)} = ${money(m.subtotal)}`,
    ]),
    ...quote.labor.map((l): [string, string] => [
      l.description ? `Labor: ${l.description}` : 'Labor',
      `${l.hours} h × ${money(l.hourlyRate)}/h = ${money(l.total)}`,
    ]),
    ...totalsRows(quote).map((row): [string, string] => [row.label, money(row.amount)]),
  ];
}

/** The quote to the client: lines, totals, the PDF, and the link to answer it. */
export function quoteMail(
  business: BusinessSettings,
  to: string,
  quote: QuoteView,
  link: string,
  pdf: Buffer,
): OutgoingMail {
  const attachment: MailAttachment = {
    filename: `Quote-${quote.quoteId}.pdf`,
    contentType: 'application/pdf',
    contentBase64: pdf.toString('base64'),
  };
  const { html, text } = composeEmail({
    business,
    heading: `Your quote for ${quote.projectName}`,
    blocks: [
      { kind: 'paragraph', text: `Hi ${quote.clientName},` },
      { kind: 'paragraph', text: `Thank you for your patience. Here is our quote; the PDF copy is attached.` },
      { kind: 'emphasis', label: 'Quote No.', value: quote.quoteId },
      { kind: 'details', rows: lineRows(quote) },
      { kind: 'paragraph', text: 'You can accept it, decline it, or ask us a question on its page:' },
      { kind: 'button', label: 'View and answer your quote', href: link },
      {
        kind: 'paragraph',
        text: `This link stays valid for ${business.quoteValidityDays} days. Questions? Call us at ${business.phone}.`,
      },
    ],
  });
  return {
    to,
    subject: `Your quote ${quote.quoteId} from ${business.name}`,
    html,
    text,
    attachments: [attachment],
  };
}

const answerWords = { accept: 'accepted', decline: 'declined', 'more-info': 'has a question about' } as const;
const answerSubjects = {
  accept: (q: QuoteView) => `Quote ${q.quoteId} accepted by ${q.clientName}`,
  decline: (q: QuoteView) => `Quote ${q.quoteId} declined by ${q.clientName}`,
  'more-info': (q: QuoteView) => `Question about quote ${q.quoteId} from ${q.clientName}`,
};

/** To the owner when a client answers a quote. */
export function quoteAnswerNotice(
  config: Config,
  business: BusinessSettings,
  quote: QuoteView,
  action: keyof typeof answerWords,
  message: string | undefined,
  jobId?: string,
): OutgoingMail {
  const { html, text } = composeEmail({
    business,
    heading: `${quote.clientName} ${answerWords[action]} quote ${quote.quoteId}`,
    blocks: [
      {
        kind: 'details',
        rows: [
          ['Client', quote.clientName],
          ['Project', quote.projectName],
          ['Total', money(quote.totalCostAfterTax)],
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
        label: 'Open the request',
        href: `${config.PUBLIC_URL}${paths.admin.quoteRequest(quote.quoteRequestId)}`,
      },
    ],
  });
  return { to: business.ownerEmail, subject: answerSubjects[action](quote), html, text };
}
