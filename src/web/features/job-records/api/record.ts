import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createStore, del, get, set } from 'idb-keyval';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { z } from 'zod';
import {
  CHANGE_ID_HEADER,
  CHANGED_AT_HEADER,
  type checklistItemInput,
  type JobPhotoStage,
  type JobRecordView,
  type MaterialInput,
  type TimeEntryInput,
} from '#shared/schemas/job-records';
import { api, apiResponse, tokenStore } from '../../../lib/api-client';
import { withOfflineCopy } from '../../../lib/offline-copy';
import { classifyResponse, Outbox, type QueuedChange, type SendResult } from '../../../lib/outbox';
import { applyPending } from '../lib/apply-pending';

// IndexedDB: the queue of changes (the last record each job showed is kept by lib/offline-copy).
const store = typeof indexedDB === 'undefined' ? undefined : createStore('handyman-crew', 'kv');
const QUEUE_KEY = 'outbox';

/** The end of the sign-in token: names who queued a change without keeping the token itself. */
const signedInAs = () => (tokenStore.get() ?? '').slice(-24);

async function sendChange(change: QueuedChange): Promise<SendResult> {
  // A change queued by someone else signed in on this phone is not sent in the new person's name.
  if (change.by !== signedInAs())
    return { kind: 'refused', message: 'A change made under another sign-in on this phone was not sent' };
  // Through the app's one client: the same token, and the same sign-in when it is refused (the queue
  // waits in the browser until they sign in again).
  const response = await apiResponse(change.method, change.path, {
    ...(change.body === undefined ? {} : { body: change.body }),
    headers: {
      // The change's id and when it was made here: the server applies an older change after a newer
      // one to the same thing as a no-op (decision 026), so a late retry changes nothing back.
      [CHANGE_ID_HEADER]: change.id,
      [CHANGED_AT_HEADER]: change.queuedAt,
    },
  });
  return classifyResponse(response);
}

let outbox: Outbox | undefined;
/** The one queue of the crew's changes in this browser (made on first use). */
function crewOutbox(): Outbox {
  if (!outbox) {
    outbox = new Outbox(
      {
        load: async () => (store ? ((await get<QueuedChange[]>(QUEUE_KEY, store)) ?? []) : []),
        save: async (changes) => {
          if (!store) return;
          if (changes.length) await set(QUEUE_KEY, changes, store);
          else await del(QUEUE_KEY, store);
        },
      },
      sendChange,
    );
    window.addEventListener('online', () => void outbox!.flush());
    void outbox.flush();
  }
  return outbox;
}

export function useOutbox() {
  const box = crewOutbox();
  return useSyncExternalStore(box.subscribe, box.getSnapshot);
}

const recordKey = (jobId: string) => ['job-record', 'mine', jobId] as const;
/** Where the phone keeps a job's record it showed last. */
export const recordCopy = (jobId: string) => `record:${jobId}`;

/**
 * One of my jobs' record as I see it: the server's (or, without signal, the last one this phone saw),
 * with my changes not yet sent laid over it.
 */
export function useCrewRecord(jobId: string) {
  const queryClient = useQueryClient();
  const snapshot = useOutbox();
  const query = useQuery({
    queryKey: recordKey(jobId),
    // No signal: what this phone saw last (lib/offline-copy), asked for even when the phone says offline.
    queryFn: () =>
      withOfflineCopy(recordCopy(jobId), () =>
        api<JobRecordView>('GET', `/my/jobs/${encodeURIComponent(jobId)}/record`),
      ),
    networkMode: 'offlineFirst',
    retry: (count, error) => error instanceof TypeError && count < 2,
  });
  // Once this job's changes are all sent, fetch the record again (the server's own words and prices).
  const mine = snapshot.pending.filter((c) => c.scope === jobId).length;
  useEffect(() => {
    if (mine === 0 && snapshot.recent.some((r) => r.change.scope === jobId && r.sentAt > query.dataUpdatedAt)) {
      void queryClient.invalidateQueries({ queryKey: recordKey(jobId) });
      // The crew's job list shows the status the record's changes may have moved.
      void queryClient.invalidateQueries({ queryKey: ['my-jobs'] });
    }
  }, [mine, snapshot.recent, jobId, query.dataUpdatedAt, queryClient]);
  const view = useMemo(() => {
    if (!query.data) return undefined;
    const laid = [
      ...snapshot.recent.filter((r) => r.sentAt > query.dataUpdatedAt).map((r) => r.change),
      ...snapshot.pending,
    ].filter((c) => c.scope === jobId);
    return applyPending(query.data, laid);
  }, [query.data, query.dataUpdatedAt, snapshot.pending, snapshot.recent, jobId]);
  return { ...query, view };
}

/** My changes to a job's record, queued (and sent at once when there is signal). */
export function useRecordChanges(jobId: string) {
  return useMemo(() => {
    const base = `/my/jobs/${encodeURIComponent(jobId)}`;
    const queue = (method: QueuedChange['method'], path: string, body?: unknown) =>
      crewOutbox().add({
        id: crypto.randomUUID(),
        scope: jobId,
        by: signedInAs(),
        method,
        path: `${base}/${path}`,
        body,
      });
    return {
      putItem: (itemId: string, body: z.infer<typeof checklistItemInput>) => queue('PUT', `checklist/${itemId}`, body),
      removeItem: (itemId: string) => queue('DELETE', `checklist/${itemId}`),
      putTime: (entryId: string, body: TimeEntryInput) => queue('PUT', `time/${entryId}`, body),
      removeTime: (entryId: string) => queue('DELETE', `time/${entryId}`),
      putMaterial: (materialId: string, body: MaterialInput) => queue('PUT', `materials/${materialId}`, body),
      removeMaterial: (materialId: string) => queue('DELETE', `materials/${materialId}`),
      putPhoto: (photoId: string, stage: JobPhotoStage, image: string) =>
        queue('PUT', `photos/${photoId}`, { stage, image }),
      removePhoto: (photoId: string) => queue('DELETE', `photos/${photoId}`),
      setNotes: (notes: string) => queue('PUT', 'notes', { notes }),
      setClientNote: (note: string) => queue('PUT', 'client-note', { note }),
      sign: (name: string, image: string) => queue('PUT', 'signature', { name, image }),
      start: () => queue('PATCH', 'status', { status: 'In Progress' }),
      complete: () => queue('POST', 'complete'),
    };
  }, [jobId]);
}

export function dismissRefused() {
  crewOutbox().dismissRefused();
}

/** The office's view of a job's record (with prices). */
export function useOfficeRecord(jobId: string) {
  return useQuery({
    queryKey: ['job-record', 'office', jobId],
    queryFn: () => api<JobRecordView>('GET', `/jobs/${encodeURIComponent(jobId)}/record`),
  });
}

/** The office prices (or changes, or removes) a material used on a job. */
export function useOfficeMaterial(jobId: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['job-record', 'office', jobId] });
  const put = useMutation({
    mutationFn: ({ id, body }: { id: string; body: MaterialInput }) =>
      api('PUT', `/jobs/${encodeURIComponent(jobId)}/materials/${id}`, { body }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api('DELETE', `/jobs/${encodeURIComponent(jobId)}/materials/${id}`),
    onSuccess: refresh,
  });
  return { put, remove };
}
