import { z } from 'zod';
import { isoDate, isoInstant, signedName } from './fields';
import { imageDataUrl } from './quote-request';
import { dollarsInput, quantityInput } from './numbers';
import { JOB_STATUSES } from '../constants';
import { requestPhoto } from './staff-quote-requests';

/*
 * The crew's record of a job (issue 16): checklist, time, materials, photos, notes, the client's
 * signature and the report. Rows the crew makes are named by ids their phone chose, so a change sent
 * twice (queued offline, then retried) lands once: every write is a PUT or a DELETE of that id.
 */

/** An id a phone made (crypto.randomUUID()). */
export const recordItemId = z.uuid('Must be a UUID');

export const checklistItemInput = z.object({
  text: z.string().trim().min(1, 'Describe the item').max(500, 'An item must be at most 500 characters'),
  done: z.boolean(),
});

const instant = isoInstant;

/**
 * What a change queued on a phone carries besides its body (decision 026): its own id and when the
 * phone made it. The server orders the changes to one thing by these (time, then id): an older change
 * than the one applied is skipped, the same one sent twice lands once.
 */
export const CHANGE_ID_HEADER = 'x-change-id';
export const CHANGED_AT_HEADER = 'x-changed-at';
export const changeHeaders = z.looseObject({
  [CHANGE_ID_HEADER]: recordItemId.optional(),
  [CHANGED_AT_HEADER]: instant.optional(),
});

/** The visit time was worked on; null or '' when the phone did not say (the server finds it). */
const visitIdInput = z
  .string()
  .max(64)
  .nullable()
  .default(null)
  .transform((id) => id || null);

/** A timer (started; stopped when `endedAt` is given) or hours entered for a day. */
export const timeEntryInput = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('timer'),
      visitId: visitIdInput,
      startedAt: instant,
      endedAt: instant.nullable().default(null),
    })
    .refine((t) => t.endedAt === null || Date.parse(t.endedAt) >= Date.parse(t.startedAt), {
      message: 'A timer stops after it starts',
      path: ['endedAt'],
    }),
  z.object({
    kind: z.literal('hours'),
    visitId: visitIdInput,
    workDate: isoDate,
    hours: z
      .number({ error: 'Hours must be a number' })
      .positive('Hours must be more than 0')
      .max(24, 'At most 24 hours a day')
      .refine((h) => Number.isInteger(h * 4), 'Hours in quarters, e.g. 1.25'),
  }),
]);
export type TimeEntryInput = z.input<typeof timeEntryInput>;

export const materialInput = z.object({
  name: z.string().trim().min(1, 'Name the material').max(200, 'A name must be at most 200 characters'),
  quantity: quantityInput(),
  /** The office's price; from the crew only when the owner lets them see prices. Null: to be priced. */
  unitPrice: dollarsInput('Unit price').nullable().optional(),
});
export type MaterialInput = z.input<typeof materialInput>;

export const crewNotesInput = z.object({
  notes: z.string().max(5000, 'Notes must be at most 5000 characters'),
});

/** The crew's note to the client: printed on the client's report (the notes for the office never are). */
export const crewClientNoteInput = z.object({
  note: z.string().max(2000, 'A note to the client must be at most 2000 characters'),
});

export const JOB_PHOTO_STAGES = ['before', 'after'] as const;
export type JobPhotoStage = (typeof JOB_PHOTO_STAGES)[number];
export const jobPhotoInput = z.object({ stage: z.enum(JOB_PHOTO_STAGES), image: imageDataUrl });

/** The most a signature drawing may weigh (a PNG of a phone's canvas is 10–60 KB). */
export const MAX_SIGNATURE_BYTES = 300_000;
export const signatureInput = z.object({
  name: signedName({
    min: 1,
    max: 120,
    missing: 'The client prints their name',
    tooLong: 'A name must be at most 120 characters',
  }),
  image: z
    .string()
    .max(Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 40, 'The signature is too large')
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, 'The signature must be a PNG data URL'),
});

/** The most photos one job keeps (before and after together). */
export const MAX_JOB_PHOTOS = 60;
/** The most checklist items, time entries and materials one job keeps, each. */
export const MAX_RECORD_ROWS = 200;

const person = z.object({ _id: z.string(), fullName: z.string() });

export const jobRecordView = z.object({
  jobId: z.string(),
  status: z.enum(JOB_STATUSES),
  /** Who is looking (their own timer and entries are theirs to change). */
  me: person,
  /** Where and for whom (the page shows it without signal too). */
  job: z.object({
    clientName: z.string(),
    phone: z.string(),
    address: z.object({ street: z.string(), city: z.string(), state: z.string(), zip: z.string() }),
    description: z.string(),
    /** The job's visits not cancelled that carry notes for the crew (a gate code, where to park), soonest first. */
    visitNotes: z.array(z.object({ visitId: z.string(), date: z.string(), start: z.string(), notes: z.string() })),
    /** The client's photos from the request (signed addresses, as on the request page). */
    photos: z.array(requestPhoto),
  }),
  /** Whether prices are shown (always to the office; to the crew when the owner allows). */
  pricesShown: z.boolean(),
  checklist: z.array(
    z.object({
      _id: z.string(),
      text: z.string(),
      fromQuote: z.boolean(),
      done: z.boolean(),
      doneAt: z.string().nullable(),
      doneBy: z.string().nullable(),
    }),
  ),
  time: z.array(
    z.object({
      _id: z.string(),
      worker: person,
      visitId: z.string().nullable(),
      workDate: z.string(),
      startedAt: z.string().nullable(),
      endedAt: z.string().nullable(),
      /** Null while a timer runs. */
      minutes: z.number().nullable(),
    }),
  ),
  /** Finished minutes per worker. */
  timeTotals: z.array(z.object({ worker: person, minutes: z.number() })),
  materials: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      quantity: z.number(),
      /** Null: not priced yet, or hidden from the crew. */
      unitPrice: z.number().nullable(),
      addedBy: z.string().nullable(),
    }),
  ),
  /** The price list the crew picks from (prices null when hidden). */
  priceList: z.array(z.object({ name: z.string(), unitPrice: z.number().nullable() })),
  photos: z.array(
    z.object({
      _id: z.string(),
      stage: z.enum(JOB_PHOTO_STAGES),
      width: z.number(),
      height: z.number(),
      url: z.string(),
      thumbnailUrl: z.string(),
    }),
  ),
  /** For the office only. */
  notes: z.string(),
  /** Printed on the client's report. */
  clientNote: z.string(),
  signature: z.object({ name: z.string(), signedAt: z.string(), imageUrl: z.string() }).nullable(),
  report: z.object({ madeAt: z.string(), url: z.string() }).nullable(),
});
export type JobRecordView = z.infer<typeof jobRecordView>;

/** "2 h 15 min", "45 min". */
export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`;
}

type ChecklistLine = Pick<JobRecordView['checklist'][number], 'done' | 'fromQuote'>;

/** The items "Complete job" asks about: the ones not ticked. */
export const untickedItems = <T extends ChecklistLine>(checklist: readonly T[]): T[] =>
  checklist.filter((c) => !c.done);

/** What "Complete job" says when items are not ticked. */
/** The crew are told to tick what they did; the office, who cannot tick for them, is told what is open. */
export const untickedMessage = (count: number, to: 'crew' | 'office' = 'crew') =>
  to === 'crew'
    ? `${count} ${count === 1 ? 'item' : 'items'} not ticked: tick them or complete anyway`
    : `The crew has not ticked ${count} ${count === 1 ? 'item' : 'items'}`;

/**
 * What the client's report lists as done: every ticked item, and the work that was sold (a completed
 * job did it, ticked or not). The crew's own items left unticked stay off the client's document.
 */
export const reportedWork = <T extends ChecklistLine>(checklist: readonly T[]): T[] =>
  checklist.filter((c) => c.done || c.fromQuote);
