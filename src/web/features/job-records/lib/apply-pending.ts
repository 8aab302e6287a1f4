import type { z } from 'zod';
import type { JobStatus } from '#shared/constants';
import type {
  checklistItemInput,
  JobPhotoStage,
  JobRecordView,
  MaterialInput,
  TimeEntryInput,
} from '#shared/schemas/job-records';
import {
  changedChecklistItem,
  isLateStart,
  isStoppedByNewTimer,
  materialUnitPrice,
  timerEnd,
  timerMinutes,
  type TimerState,
} from '#shared/job-record-rules';
import type { QueuedChange } from '../../../lib/outbox';

type ChecklistBody = z.infer<typeof checklistItemInput>;
type Record = JobRecordView;

const minutesOf = (entry: TimeEntryInput): number | null => {
  if (entry.kind === 'hours') return Math.round(entry.hours * 60);
  if (!entry.endedAt) return null;
  return timerMinutes(Date.parse(entry.startedAt), Date.parse(entry.endedAt));
};
const endOf = (startedAt: string, endedAt: string) =>
  new Date(timerEnd(Date.parse(startedAt), Date.parse(endedAt))).toISOString();

/** A time entry of the view as the crew record's rules see it. */
const timerState = (entry: Record['time'][number]): TimerState => ({
  id: entry._id,
  workerId: entry.worker._id,
  startedMs: entry.startedAt ? Date.parse(entry.startedAt) : null,
  endedMs: entry.endedAt ? Date.parse(entry.endedAt) : null,
});

const upsert = <T extends { _id: string }>(list: T[], item: T): T[] =>
  list.some((x) => x._id === item._id) ? list.map((x) => (x._id === item._id ? item : x)) : [...list, item];

/**
 * The record as the person sees it: what the server last said, with the changes not yet sent (or sent
 * after it was fetched) laid over it, as the server will apply them. A change applied twice gives the
 * same result, so one both fetched and pending shows once.
 */
export function applyPending(record: Record, changes: readonly QueuedChange[]): Record {
  let view = record;
  const base = `/my/jobs/${record.jobId}/`;
  for (const change of changes) {
    if (!change.path.startsWith(base)) continue;
    const [kind, id = ''] = change.path.slice(base.length).split('/');
    view = applyOne(view, kind!, id, change);
  }
  return withTotals(view);
}

function applyOne(view: Record, kind: string, id: string, change: QueuedChange): Record {
  const remove = change.method === 'DELETE';
  const now = change.queuedAt;
  switch (kind) {
    case 'checklist': {
      if (remove) return { ...view, checklist: view.checklist.filter((c) => c._id !== id) };
      const body = change.body as ChecklistBody;
      const current = view.checklist.find((c) => c._id === id);
      const item = {
        _id: id,
        fromQuote: false,
        ...current,
        done: body.done,
        ...changedChecklistItem(current, body, now, view.me.fullName),
      };
      return { ...view, checklist: upsert(view.checklist, item) };
    }
    case 'time': {
      if (remove) return { ...view, time: view.time.filter((t) => t._id !== id) };
      const body = change.body as TimeEntryInput;
      const timer = body.kind === 'timer';
      let time = view.time;
      if (timer) {
        const existing = time.find((t) => t._id === id);
        const startedMs = Date.parse(body.startedAt);
        const endedMs = body.endedAt ? Date.parse(body.endedAt) : null;
        if (isLateStart(existing && timerState(existing), { startedMs, endedMs })) return view;
        // Starting a timer stops the one that ran.
        if (endedMs === null)
          time = time.map((t) =>
            isStoppedByNewTimer(timerState(t), view.me._id, id) && t.startedAt
              ? {
                  ...t,
                  endedAt: endOf(t.startedAt, body.startedAt),
                  minutes: timerMinutes(Date.parse(t.startedAt), startedMs),
                }
              : t,
          );
      }
      const entry = {
        _id: id,
        worker: view.me,
        visitId: body.visitId ?? null,
        workDate: timer ? body.startedAt.slice(0, 10) : body.workDate,
        startedAt: timer ? body.startedAt : null,
        endedAt: timer && body.endedAt ? endOf(body.startedAt, body.endedAt) : null,
        minutes: minutesOf(body),
      };
      return { ...view, time: upsert(time, entry) };
    }
    case 'materials': {
      if (remove) return { ...view, materials: view.materials.filter((m) => m._id !== id) };
      const body = change.body as MaterialInput;
      const current = view.materials.find((m) => m._id === id);
      // Prices hidden from the crew stay hidden here too.
      const unitPrice = view.pricesShown
        ? materialUnitPrice({
            given: body.unitPrice,
            mayGivePrice: true,
            office: false,
            current: current && { name: current.name, price: current.unitPrice },
            name: body.name,
            listed:
              view.priceList.find((p) => p.name.toLowerCase() === body.name.toLowerCase())?.unitPrice ?? undefined,
          })
        : null;
      const item = {
        _id: id,
        name: body.name,
        quantity: body.quantity,
        unitPrice,
        addedBy: current?.addedBy ?? view.me.fullName,
      };
      return { ...view, materials: upsert(view.materials, item) };
    }
    case 'photos': {
      if (remove) return { ...view, photos: view.photos.filter((p) => p._id !== id) };
      const body = change.body as { stage: JobPhotoStage; image: string };
      const current = view.photos.find((p) => p._id === id);
      const photo = current
        ? { ...current, stage: body.stage }
        : { _id: id, stage: body.stage, width: 0, height: 0, url: body.image, thumbnailUrl: body.image };
      return { ...view, photos: upsert(view.photos, photo) };
    }
    case 'notes':
      return { ...view, notes: (change.body as { notes: string }).notes };
    case 'client-note':
      return { ...view, clientNote: (change.body as { note: string }).note };
    case 'signature': {
      const body = change.body as { name: string; image: string };
      return { ...view, signature: { name: body.name, signedAt: now, imageUrl: body.image } };
    }
    case 'status':
      return { ...view, status: (change.body as { status: JobStatus }).status };
    case 'complete':
      return { ...view, status: 'Completed' };
    default:
      return view;
  }
}

/** Finished minutes per worker, from the entries. */
function withTotals(view: Record): Record {
  const totals = new Map<string, Record['timeTotals'][number]>();
  for (const t of view.time) {
    const total = totals.get(t.worker._id) ?? { worker: t.worker, minutes: 0 };
    totals.set(t.worker._id, { ...total, minutes: total.minutes + (t.minutes ?? 0) });
  }
  return { ...view, timeTotals: [...totals.values()] };
}
