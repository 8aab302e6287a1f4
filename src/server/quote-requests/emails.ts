import { paths } from '#shared/paths';
import type { Config } from '../config';
import type { BusinessSettings } from '../lib/business';
import type { QuoteRequestRow } from './repository';
import { composeEmail, type OutgoingMail } from '../mail';

const addressLine = (r: QuoteRequestRow) => `${r.street}, ${r.city}, ${r.state} ${r.zip}`;

/**
 * The first word of what a visitor typed as their name, as one short line: the thank-you e-mail
 * goes to an address nobody has verified, so it repeats nothing else they chose.
 */
export function greetingName(contactName: string): string {
  const first =
    contactName
      .replace(/[\p{C}\p{Z}]+/gu, ' ')
      .trim()
      .split(' ')[0] ?? '';
  return [...first].slice(0, 60).join('');
}

/**
 * To the client: thanks, the Quote Number, and our link to follow the request. Anyone can type
 * someone else's address into the form, so this carries nothing the visitor wrote but a first
 * name: no notes, no address, no links of theirs (the owner's notice keeps everything).
 */
export function quoteRequestThankYou(
  config: Config,
  business: BusinessSettings,
  request: QuoteRequestRow,
): OutgoingMail {
  const statusUrl = `${config.PUBLIC_URL}${paths.quoteRequestStatusOf(request.id)}`;
  const name = greetingName(request.contactName);
  const { html, text } = composeEmail({
    business,
    heading: 'Thank you for your quote request!',
    blocks: [
      { kind: 'paragraph', text: name ? `Hi ${name},` : 'Hello,' },
      { kind: 'paragraph', text: `We have received your request and will get back to you soon with an answer.` },
      { kind: 'emphasis', label: 'Your Quote Number:', value: request.quoteNumber },
      { kind: 'paragraph', text: 'Use it to check the status of your request at any time:' },
      { kind: 'button', label: 'Check your quote request status', href: statusUrl },
      { kind: 'paragraph', text: `Questions? Reply to this e-mail or call us at ${business.phone}.` },
    ],
  });
  return {
    to: request.contactEmail,
    subject: `Thank you for your quote request — Quote Number ${request.quoteNumber}`,
    html,
    text,
  };
}

/** To the owner: a new request to triage, with the link to its admin page. */
export function newQuoteRequestNotice(
  config: Config,
  business: BusinessSettings,
  request: QuoteRequestRow,
  imageCount: number,
  /** The estimate visit the visitor booked with it (issue 31), as the client reads it; or asked for, to approve. */
  estimate?: { when: string; awaitingApproval: boolean },
): OutgoingMail {
  const adminUrl = `${config.PUBLIC_URL}${paths.admin.quoteRequest(request.id)}`;
  const { html, text } = composeEmail({
    business,
    heading: `New quote request ${request.quoteNumber}`,
    blocks: [
      {
        kind: 'details',
        rows: [
          ['Name', request.contactName],
          ['E-mail', request.contactEmail],
          ['Phone', request.contactPhone || 'Not provided'],
          ['Address', addressLine(request)],
          ['Preferred end date', request.preferredEndDate ?? 'None given'],
          ['Photos', String(imageCount)],
          ...(estimate
            ? [
                (estimate.awaitingApproval
                  ? ['Estimate visit asked for', `${estimate.when}: approve it on the request's page`]
                  : ['Estimate visit booked', estimate.when]) as [string, string],
              ]
            : []),
        ],
      },
      { kind: 'preformatted', text: request.notes },
      { kind: 'button', label: 'Open the request', href: adminUrl },
    ],
  });
  return {
    to: business.ownerEmail,
    replyTo: request.contactEmail,
    subject: `New quote request from ${request.contactName} (${request.quoteNumber})`,
    html,
    text,
  };
}

/** To the client, when the owner accepts the request: a quote is on its way. */
export function quoteRequestAcceptedMail(
  config: Config,
  business: BusinessSettings,
  request: QuoteRequestRow,
): OutgoingMail {
  const { html, text } = composeEmail({
    business,
    heading: 'We are preparing your quote',
    blocks: [
      { kind: 'paragraph', text: `Hi ${request.contactName},` },
      {
        kind: 'paragraph',
        text: `Good news: we have reviewed your request ${request.quoteNumber} and are preparing your quote. It will arrive by e-mail shortly.`,
      },
      {
        kind: 'button',
        label: 'Check your quote request status',
        href: `${config.PUBLIC_URL}${paths.quoteRequestStatusOf(request.id)}`,
      },
      { kind: 'paragraph', text: `Questions in the meantime? Call us at ${business.phone}.` },
    ],
  });
  return {
    to: request.contactEmail,
    subject: `Your quote request ${request.quoteNumber}: a quote is being prepared`,
    html,
    text,
  };
}

/** To the client, when the owner declines the request, with the reason given. */
export function quoteRequestDeclinedMail(
  config: Config,
  business: BusinessSettings,
  request: QuoteRequestRow,
  reason: string,
): OutgoingMail {
  const { html, text } = composeEmail({
    business,
    heading: 'About your quote request',
    blocks: [
      { kind: 'paragraph', text: `Hi ${request.contactName},` },
      {
        kind: 'paragraph',
        text: `Thank you for thinking of us. Unfortunately we cannot take on your request ${request.quoteNumber}, for this reason:`,
      },
      { kind: 'preformatted', text: reason },
      {
        kind: 'paragraph',
        text: `If you think this is an error, or your plans change, please contact us at ${business.phone} or ${business.email}.`,
      },
    ],
  });
  return { to: request.contactEmail, subject: `Your quote request ${request.quoteNumber}`, html, text };
}
