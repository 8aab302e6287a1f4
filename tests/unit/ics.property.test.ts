import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { visitFeed, visitInvite, type CalendarEntry } from '../../src/server/visits/ics';
import type { VisitView } from '#shared/schemas/visits';

// Issue 25.8: the business's name went raw into PRODID, NAME and X-WR-CALNAME, so a line end in it
// added whole events. Any name and any client text must give exactly the intended events, and parse
// back (with ical.js, an independent reader) to the text that was meant.

/** Text as people and attackers type it: any character, with the ones iCalendar cares about often. */
const text = fc.string({
  unit: fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '\r\n',
        '\r',
        '\n',
        ';',
        ',',
        '\\',
        ':',
        '"',
        'END:VEVENT',
        'BEGIN:VEVENT',
        '\u2028',
        '\u0085',
        '\u0000',
        '\t',
      ),
    },
    { weight: 5, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  ),
  maxLength: 40,
});

/** What survives: the controls iCalendar text cannot hold go, every line end reads back as \n. */
const meant = (value: string) =>
  // eslint-disable-next-line no-control-regex
  value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g, '').replace(/\r\n|\r/g, '\n');

const visit = (
  i: number,
  client: { name: string; phone: string; address: string },
  notes: string,
  clientNote: string,
): VisitView => ({
  _id: `v${i}`,
  jobId: 'j1',
  startsAt: new Date(Date.UTC(2027, 2, 10 + i, 17)).toISOString(),
  endsAt: new Date(Date.UTC(2027, 2, 10 + i, 19)).toISOString(),
  date: '2027-03-10',
  start: '09:00',
  end: '11:00',
  workers: [{ _id: 'w1', fullName: 'Sam' }],
  notes,
  clientNote,
  cancelled: false,
  cancelReason: null,
  confirmedAt: null,
  clientMoves: 0,
  awaitingApproval: false,
  quoteRequestId: null,
  planId: null,
  work: 'Fix',
  client,
});

const business = (name: string) => ({
  name,
  email: 'office@example.com',
  phone: '916-555-0100',
  timeZone: 'America/Los_Angeles',
  arrivalWindowMinutes: 120,
});

function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return {
    calendar,
    events: calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)),
  };
}

/** Every line ends with CRLF, and no bare CR or LF hides inside one. */
function expectCleanLines(ics: string) {
  for (const line of ics.split('\r\n')) expect(line).not.toMatch(/[\r\n\u2028\u2029]/);
}

/** RFC 5545 TEXT as written, read back. */
const unescapeText = (value: string) =>
  value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

describe('iCalendar text (RFC 5545 escaping)', () => {
  it('a feed holds exactly its events, whatever the business and client texts', () => {
    fc.assert(
      fc.property(
        text,
        fc.array(fc.record({ name: text, phone: text, address: text, notes: text, clientNote: text }), {
          maxLength: 4,
        }),
        (name, clients) => {
          const entries: CalendarEntry[] = clients.map((c, i) => ({
            visit: visit(i, { name: c.name, phone: c.phone, address: c.address }, c.notes, c.clientNote),
            sequence: i,
          }));
          const ics = visitFeed(business(name), `${name} visits`, entries);
          expectCleanLines(ics);
          const { calendar, events } = parse(ics);
          expect(events).toHaveLength(entries.length);
          expect(calendar.getAllSubcomponents()).toHaveLength(entries.length);
          // ical.js reads NAME and X-WR-CALNAME as values of unknown type, left escaped.
          expect(unescapeText(String(calendar.getFirstPropertyValue('name')))).toBe(meant(`${name} visits`));
          expect(unescapeText(String(calendar.getFirstPropertyValue('x-wr-calname')))).toBe(meant(`${name} visits`));
          expect(calendar.getFirstPropertyValue('prodid')).toBe(`-//${meant(name)}//Visits//EN`);
          events.forEach((event, i) => {
            const c = clients[i]!;
            expect(event.uid).toBe(`visit-v${i}@handyman`);
            expect(event.summary).toBe(meant(`${c.name}: ${c.address}`));
            expect(event.location ?? '').toBe(meant(c.address));
            expect(event.description ?? '').toBe(
              meant(
                [
                  c.phone ? `Client phone: ${c.phone}` : '',
                  c.notes,
                  c.clientNote ? `Note to the client: ${c.clientNote}` : '',
                ]
                  .filter(Boolean)
                  .join('\n'),
              ),
            );
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a client's invite holds exactly one event, whatever the business's name and the note", () => {
    fc.assert(
      fc.property(text, text, text, (name, address, clientNote) => {
        const ics = visitInvite(business(name), {
          visit: visit(0, { name: 'C', phone: '', address }, 'gate 1234', clientNote),
          sequence: 2,
        });
        expectCleanLines(ics);
        const { calendar, events } = parse(ics);
        expect(calendar.getAllSubcomponents()).toHaveLength(1);
        expect(events).toHaveLength(1);
        expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
        // An empty name has no NAME line at all.
        expect(unescapeText(String(calendar.getFirstPropertyValue('name') ?? ''))).toBe(meant(name));
        expect(events[0]!.summary).toBe(meant(`${name}: Sam at your property`));
        expect(events[0]!.location ?? '').toBe(meant(address));
        expect(events[0]!.description).not.toContain('gate 1234');
      }),
      { numRuns: 300 },
    );
  });

  it('a name with a line end and a whole event in it stays one line', () => {
    const name = 'Acme\r\nEND:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:evil\r\nSUMMARY:Pay here, now; ok\\\r\nEND:VEVENT';
    const ics = visitFeed(business(name), name, []);
    // Long lines are folded (CRLF and a space); unfolded, the name is one escaped line.
    expect(ics.replace(/\r\n[ \t]/g, '')).toContain(
      'X-WR-CALNAME:Acme\\nEND:VCALENDAR\\nBEGIN:VEVENT\\nUID:evil\\nSUMMARY:Pay here\\, now\\; ok\\\\\\nEND:VEVENT\r\n',
    );
    expect(ics.match(/^BEGIN:VEVENT/gm)).toBeNull();
  });
});
