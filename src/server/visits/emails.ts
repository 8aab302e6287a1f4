import { formatLongDate } from '../../shared/dates';
import type { VisitView } from '../../shared/schemas/visits';
import type { BusinessSettings } from '../lib/business';
import { composeEmail, type OutgoingMail } from '../mail';
import { visitInvite } from './ics';

export type VisitMailKind = 'booked' | 'moved' | 'cancelled' | 'reminder';

const headings: Record<VisitMailKind, string> = {
  booked: 'Your visit is booked',
  moved: 'Your visit has moved',
  cancelled: 'Your visit is cancelled',
  reminder: 'See you tomorrow',
};

/** To the client when a visit is booked, moved or cancelled (with the .ics), and the day before. */
export function visitMail(
  business: BusinessSettings,
  to: string,
  visit: VisitView,
  kind: VisitMailKind,
  sequence: number,
): OutgoingMail {
  const when = `${formatLongDate(visit.date)}, between ${visit.start} and ${visit.end}`;
  const crew = visit.workers.map((w) => w.fullName).join(', ') || 'Our crew';
  const { html, text } = composeEmail({
    business,
    heading: headings[kind],
    blocks: [
      { kind: 'paragraph', text: `Hi ${visit.client.name},` },
      {
        kind: 'paragraph',
        text:
          kind === 'cancelled'
            ? `We have cancelled the visit planned for ${when}.${visit.cancelReason ? ` ${visit.cancelReason}` : ''} We will be in touch to find another time.`
            : kind === 'reminder'
              ? 'A reminder that we are coming tomorrow.'
              : kind === 'moved'
                ? 'We have moved your visit. The new time is below; the attached calendar entry replaces the old one.'
                : 'We have booked a visit to your home. Add it to your calendar with the attached file.',
      },
      ...(kind === 'cancelled'
        ? []
        : [
            {
              kind: 'details' as const,
              rows: [
                ['When', when],
                ['Who is coming', crew],
                ['Where', visit.client.address],
              ] as [string, string][],
            },
          ]),
      // The note written for the client; the crew's own notes never go to them.
      ...(kind !== 'cancelled' && visit.clientNote ? [{ kind: 'paragraph' as const, text: visit.clientNote }] : []),
      { kind: 'paragraph', text: `Questions or a change of plan? Call us at ${business.phone}.` },
    ],
  });
  const subject = {
    booked: `Your visit on ${formatLongDate(visit.date)} – ${business.name}`,
    moved: `Your visit has moved to ${formatLongDate(visit.date)} – ${business.name}`,
    cancelled: `Your visit on ${formatLongDate(visit.date)} is cancelled – ${business.name}`,
    reminder: `Reminder: we are coming tomorrow, ${visit.start}–${visit.end} – ${business.name}`,
  }[kind];
  return {
    to,
    subject,
    html,
    text,
    attachments:
      kind === 'reminder'
        ? []
        : [
            {
              filename: 'visit.ics',
              contentType: `text/calendar; charset=utf-8; method=${visit.cancelled ? 'CANCEL' : 'REQUEST'}`,
              contentBase64: Buffer.from(visitInvite(business, { visit, sequence })).toString('base64'),
            },
          ],
  };
}
