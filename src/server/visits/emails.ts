import { formatArrival } from '#shared/arrival-window';
import type { VisitView } from '#shared/schemas/visits';
import type { BusinessSettings } from '../lib/business';
import { composeEmail, type OutgoingMail } from '../mail';
import { visitInvite } from './ics';

/** `called-off`: a visit still to come when its job ended (finished early, or cancelled): no new time follows. */
/** `client-cancelled`: the client called it off from their page (decision 046). */
/** `requested`: an estimate visit booked online that waits for the office's approval; `booked` follows it. */
export type VisitMailKind =
  'booked' | 'requested' | 'moved' | 'cancelled' | 'called-off' | 'client-cancelled' | 'reminder';

/** The day the visit is, seen from the day the reminder arrives. */
export type ReminderDay = 'today' | 'tomorrow';

const headings: Record<Exclude<VisitMailKind, 'reminder'>, string> = {
  booked: 'Your visit is booked',
  requested: 'We have your requested time',
  moved: 'Your visit has moved',
  cancelled: 'Your visit is cancelled',
  'called-off': 'Your visit is cancelled',
  'client-cancelled': 'Your visit is cancelled',
};

/**
 * To the client when a visit is booked, moved or cancelled (with the .ics), and the reminder (the day
 * before, or the morning of a visit booked late: `day` says which).
 */
export function visitMail(
  business: BusinessSettings,
  to: string,
  visit: VisitView,
  kind: VisitMailKind,
  sequence: number,
  day: ReminderDay = 'tomorrow',
): OutgoingMail {
  const when = formatArrival(visit, business.arrivalWindowMinutes, business.timeZone);
  const crew = visit.workers.map((w) => w.fullName).join(', ') || 'Our crew';
  const reason = visit.cancelReason ? ` ${visit.cancelReason}` : '';
  const { html, text } = composeEmail({
    business,
    heading: kind === 'reminder' ? `See you ${day}` : headings[kind],
    blocks: [
      { kind: 'paragraph', text: `Hi ${visit.client.name},` },
      {
        kind: 'paragraph',
        text: {
          booked: 'We have booked a visit to your property. Add it to your calendar with the attached file.',
          requested:
            'Thank you for picking a time for our visit. We hold it for you and will confirm it shortly by e-mail, with an entry for your calendar.',
          moved: 'We have moved your visit. The new time is below; the attached calendar entry replaces the old one.',
          cancelled: `We have cancelled the visit planned for ${when}.${reason} We will be in touch to find another time.`,
          'called-off': `We have cancelled the visit planned for ${when}.${reason} There is nothing you need to do.`,
          'client-cancelled': `As you asked, we have cancelled the visit planned for ${when}. When you want another time, ask for it on your page (the link below) or call us.`,
          reminder: `A reminder that we are coming ${day}. Please confirm the time: press Confirm on your page (the link below), or reply to this e-mail.`,
        }[kind],
      },
      ...(kind === 'cancelled' || kind === 'called-off' || kind === 'client-cancelled'
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
      ...(kind !== 'cancelled' && kind !== 'called-off' && kind !== 'client-cancelled' && visit.clientNote
        ? [{ kind: 'paragraph' as const, text: visit.clientNote }]
        : []),
      {
        kind: 'paragraph',
        text:
          kind === 'booked' || kind === 'requested' || kind === 'moved' || kind === 'reminder'
            ? `Need another time? Reschedule on your page (the link below), reply to this e-mail or call us at ${business.phone}.`
            : `Questions or a change of plan? Reply to this e-mail or call us at ${business.phone}.`,
      },
    ],
  });
  // The sender's name is the business's: the subject keeps to the visit.
  const subject = {
    booked: `Your visit on ${when}`,
    requested: `Your requested visit on ${when}: we will confirm it`,
    moved: `Your visit has moved to ${when}`,
    cancelled: `Your visit on ${when} is cancelled`,
    'called-off': `Your visit on ${when} is cancelled`,
    'client-cancelled': `Your visit on ${when} is cancelled`,
    reminder: `Reminder: we are coming ${day}, ${when}`,
  }[kind];
  return {
    to,
    subject,
    html,
    text,
    // A calendar entry once the time is set: none for a time still asked for, or called off before it was.
    attachments:
      kind === 'reminder' || visit.awaitingApproval
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

/**
 * The text about a visit (decision 045): short, with the business's name and the window, and the
 * link to the client's page for the rest; nothing private (no address, no notes).
 */
export function visitText(
  business: BusinessSettings,
  visit: VisitView,
  kind: VisitMailKind,
  day: ReminderDay = 'tomorrow',
): { body: string; pageLink: boolean } {
  const when = formatArrival(visit, business.arrivalWindowMinutes, business.timeZone);
  const name = business.name;
  switch (kind) {
    case 'booked':
      return { body: `${name}: your visit is booked for ${when}. Details:`, pageLink: true };
    case 'requested':
      return {
        body: `${name}: we have your requested time, ${when}, and will confirm it shortly. Details:`,
        pageLink: true,
      };
    case 'moved':
      return { body: `${name}: your visit has moved to ${when}. Details:`, pageLink: true };
    case 'reminder':
      return { body: `${name}: we are coming ${day}, ${when}. Reply C to confirm. Details:`, pageLink: true };
    case 'cancelled':
    case 'called-off':
    case 'client-cancelled':
      return {
        body: `${name}: your visit on ${when} is cancelled. Questions? Call ${business.phone}.`,
        pageLink: false,
      };
  }
}
