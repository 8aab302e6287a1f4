import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { VisitView } from '../../shared/schemas/visits';
import type { Business } from '../lib/business';

/** One visit as a calendar event: times in UTC, so every calendar shows them at the right local time. */
export interface CalendarEntry {
  visit: VisitView;
  /** Bumped on every change, so calendars replace the event they already have. */
  sequence: number;
}

function addEvent(
  cal: ReturnType<typeof ical>,
  business: Business,
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
    description: forCrew
      ? [visit.client.phone ? `Client phone: ${visit.client.phone}` : '', visit.notes].filter(Boolean).join('\n')
      : [`Arrival window ${visit.start}–${visit.end}.`, `Who is coming: ${crew}.`, `Questions: ${business.phone}.`]
          .concat(visit.notes ? [visit.notes] : [])
          .join('\n'),
    location: visit.client.address,
    status: visit.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: business.name, email: business.email },
  });
}

/** The .ics attached to the client's e-mail: a request to add (or update) the visit, or its cancellation. */
export function visitInvite(business: Business, entry: CalendarEntry): string {
  const cal = ical({
    name: business.name,
    prodId: { company: business.name, product: 'Visits', language: 'EN' },
    method: entry.visit.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  addEvent(cal, business, entry, false);
  return cal.toString();
}

/** A subscribed calendar feed: the company's visits, or one worker's. */
export function visitFeed(business: Business, name: string, entries: CalendarEntry[]): string {
  const cal = ical({
    name,
    prodId: { company: business.name, product: 'Visits', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: 60 * 15,
  });
  for (const entry of entries) addEvent(cal, business, entry, true);
  return cal.toString();
}
