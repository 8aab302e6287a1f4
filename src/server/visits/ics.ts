import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { VisitView } from '#shared/schemas/visits';
import { formatArrival } from '#shared/arrival-window';
import type { Business } from '../lib/business';

/** The business as a calendar entry names it, with the zone its visit windows are read in. */
type CalendarBusiness = Business & { timeZone: string; arrivalWindowMinutes: number };

/**
 * Characters no iCalendar text may hold (RFC 5545 3.3.11 allows none of the controls but tab):
 * C0 controls other than tab and line ends, DEL, C1 controls, and the Unicode line and paragraph
 * separators some readers take for line ends.
 */
// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Text made fit for a property ical-generator escapes itself (an event's summary, description, location). */
export const calendarText = (value: string) => value.replace(NOT_TEXT, '');

/**
 * A TEXT value escaped as RFC 5545 3.3.11 says, for the properties ical-generator writes as they are
 * (the calendar's NAME, X-WR-CALNAME, and the company in PRODID): backslash, semicolon and comma
 * behind a backslash, every line end as `\n`; so no value can end its line and start another.
 */
export function escapeText(value: string): string {
  return calendarText(value)
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** A name in a quoted parameter (the organizer's CN): no double quote, no line end, no control. */
const parameterText = (value: string) =>
  calendarText(value)
    .replace(/[\r\n"]+/g, ' ')
    .trim() || 'Calendar';

/** The calendar's own product id: the business's name escaped as TEXT. */
const productId = (business: CalendarBusiness) => `//${escapeText(business.name)}//Visits//EN`;

/** One visit as a calendar event: times in UTC, so every calendar shows them at the right local time. */
export interface CalendarEntry {
  visit: VisitView;
  /** Bumped on every change, so calendars replace the event they already have. */
  sequence: number;
}

function addEvent(
  cal: ReturnType<typeof ical>,
  business: CalendarBusiness,
  { visit, sequence }: CalendarEntry,
  forCrew: boolean,
) {
  const crew = visit.workers.map((w) => w.fullName).join(', ') || 'our crew';
  // ical-generator escapes these as TEXT (backslash, ; , and line ends); the controls it leaves go here.
  cal.createEvent({
    id: `visit-${visit._id}@handyman`,
    sequence,
    start: new Date(visit.startsAt),
    end: new Date(visit.endsAt),
    summary: calendarText(
      forCrew ? `${visit.client.name}: ${visit.client.address}` : `${business.name}: ${crew} at your property`,
    ),
    // The crew's notes (gate codes, "collect the check first") are the crew's: the client's entry
    // carries only the note written for them.
    description: calendarText(
      forCrew
        ? [
            visit.client.phone ? `Client phone: ${visit.client.phone}` : '',
            visit.notes,
            visit.clientNote ? `Note to the client: ${visit.clientNote}` : '',
          ]
            .filter(Boolean)
            .join('\n')
        : [
            `When: ${formatArrival(visit, business.arrivalWindowMinutes, business.timeZone)}.`,
            `Who is coming: ${crew}.`,
            `Questions: ${business.phone}.`,
          ]
            .concat(visit.clientNote ? [visit.clientNote] : [])
            .join('\n'),
    ),
    location: calendarText(visit.client.address),
    status: visit.cancelled
      ? ICalEventStatus.CANCELLED
      : visit.awaitingApproval
        ? ICalEventStatus.TENTATIVE
        : ICalEventStatus.CONFIRMED,
    organizer: { name: parameterText(business.name), email: business.email },
  });
}

/** The .ics attached to the client's e-mail: a request to add (or update) the visit, or its cancellation. */
export function visitInvite(business: CalendarBusiness, entry: CalendarEntry): string {
  const cal = ical({
    name: escapeText(business.name),
    prodId: productId(business),
    method: entry.visit.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  addEvent(cal, business, entry, false);
  return cal.toString();
}

/** A subscribed calendar feed: the company's visits, or one worker's. */
export function visitFeed(business: CalendarBusiness, name: string, entries: CalendarEntry[]): string {
  const cal = ical({
    name: escapeText(name),
    prodId: productId(business),
    method: ICalCalendarMethod.PUBLISH,
    ttl: 60 * 15,
  });
  for (const entry of entries) addEvent(cal, business, entry, true);
  return cal.toString();
}
