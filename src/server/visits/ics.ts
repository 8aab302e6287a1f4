import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { VisitView } from '../../shared/schemas/visits';
import { formatVisitWindow } from '../../shared/dates';
import type { Business } from '../lib/business';

/** The business as a calendar entry names it, with the zone its visit windows are read in. */
type CalendarBusiness = Business & { timeZone: string };

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
  cal.createEvent({
    id: `visit-${visit._id}@handyman`,
    sequence,
    start: new Date(visit.startsAt),
    end: new Date(visit.endsAt),
    summary: forCrew ? `${visit.client.name}: ${visit.client.address}` : `${business.name}: ${crew} at your property`,
    // The crew's notes (gate codes, "collect the check first") are the crew's: the client's entry
    // carries only the note written for them.
    description: forCrew
      ? [
          visit.client.phone ? `Client phone: ${visit.client.phone}` : '',
          visit.notes,
          visit.clientNote ? `Note to the client: ${visit.clientNote}` : '',
        ]
          .filter(Boolean)
          .join('\n')
      : [
          `Arrival window: ${formatVisitWindow(visit.startsAt, visit.endsAt, business.timeZone)}.`,
          `Who is coming: ${crew}.`,
          `Questions: ${business.phone}.`,
        ]
          .concat(visit.clientNote ? [visit.clientNote] : [])
          .join('\n'),
    location: visit.client.address,
    status: visit.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: business.name, email: business.email },
  });
}

/** The .ics attached to the client's e-mail: a request to add (or update) the visit, or its cancellation. */
export function visitInvite(business: CalendarBusiness, entry: CalendarEntry): string {
  const cal = ical({
    name: business.name,
    prodId: { company: business.name, product: 'Visits', language: 'EN' },
    method: entry.visit.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  addEvent(cal, business, entry, false);
  return cal.toString();
}

/** A subscribed calendar feed: the company's visits, or one worker's. */
export function visitFeed(business: CalendarBusiness, name: string, entries: CalendarEntry[]): string {
  const cal = ical({
    name,
    prodId: { company: business.name, product: 'Visits', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: 60 * 15,
  });
  for (const entry of entries) addEvent(cal, business, entry, true);
  return cal.toString();
}
