import { createStore, get, set } from 'idb-keyval';
import { useSyncExternalStore } from 'react';
import { tokenStore } from './api-client';

/**
 * The last answer of a crew page's reads, kept on the phone (IndexedDB), so My work and every job the
 * worker opened show without signal, saying how old they are (decision 030). Kept per sign-in: a copy
 * made under someone else's is never shown.
 */
const store = typeof indexedDB === 'undefined' ? undefined : createStore('handyman-crew-copies', 'kv');

interface Copy<T> {
  by: string;
  savedAt: number;
  data: T;
}

/** The end of the sign-in token names whose copy it is without keeping the token itself. */
const signedInAs = () => (tokenStore.get() ?? '').slice(-24);

/** When each key shown now was kept, for the keys shown from a copy (the network was not there). */
let shownFromCopy = new Map<string, number>();
const listeners = new Set<() => void>();
function mark(key: string, savedAt: number | undefined) {
  if (shownFromCopy.get(key) === savedAt) return;
  shownFromCopy = new Map(shownFromCopy);
  if (savedAt === undefined) shownFromCopy.delete(key);
  else shownFromCopy.set(key, savedAt);
  for (const listener of listeners) listener();
}

/** No answer at all (no signal, the server unreachable), as fetch reports it: not a refusal. */
export const isNoSignal = (error: unknown) => error instanceof TypeError;

/**
 * Reads through `read` and keeps the answer; without signal answers the copy kept last (or the error
 * when there is none). A refusal (4xx) is never covered by a copy.
 */
export async function withOfflineCopy<T>(key: string, read: () => Promise<T>): Promise<T> {
  try {
    const data = await read();
    mark(key, undefined);
    if (store) void set(key, { by: signedInAs(), savedAt: Date.now(), data } satisfies Copy<T>, store).catch(() => {});
    return data;
  } catch (error) {
    if (!isNoSignal(error) || !store) throw error;
    const copy = await get<Copy<T>>(key, store).catch(() => undefined);
    if (!copy || copy.by !== signedInAs()) throw error;
    mark(key, copy.savedAt);
    return copy.data;
  }
}

/** The time of the oldest copy shown among `keys`, or undefined when all came from the server. */
export function useShownFromCopy(keys: string[]): number | undefined {
  const shown = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => shownFromCopy,
    () => shownFromCopy,
  );
  const times = keys.map((k) => shown.get(k)).filter((t): t is number => t !== undefined);
  return times.length ? Math.min(...times) : undefined;
}
