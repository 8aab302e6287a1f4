/**
 * Changes made on a phone with a bad signal: kept in the browser (IndexedDB, so a reload loses none) and
 * sent in order when the connection allows. The server takes each change as a PUT or DELETE of an id
 * the phone chose, so a change sent twice (the answer was lost) lands once.
 */

export interface QueuedChange {
  /** The change's own id. */
  id: string;
  /** What it belongs to (a job): pages show only their own changes. */
  scope: string;
  /** Who made it (the end of their sign-in token): sent only for them, never as someone else. */
  by: string;
  method: 'PUT' | 'PATCH' | 'DELETE' | 'POST';
  /** Under /api. */
  path: string;
  body?: unknown;
  queuedAt: string;
}

/** How one attempt went: sent; not now (no signal, server busy: try again); or refused for good. */
export type SendResult = { kind: 'sent' } | { kind: 'retry' } | { kind: 'refused'; message: string };

export interface OutboxStorage {
  load(): Promise<QueuedChange[]>;
  save(changes: QueuedChange[]): Promise<void>;
}

export interface OutboxSnapshot {
  /** Waiting to be sent (the first may be on its way). */
  pending: readonly QueuedChange[];
  /** Sent lately: a page keeps showing them until its data is fetched again after `sentAt`. */
  recent: readonly { change: QueuedChange; sentAt: number }[];
  /** The last attempt found no signal (or a busy server); the next try is scheduled. */
  waiting: boolean;
  /** Changes the server refused (with its reason): shown, never retried. */
  refused: readonly { change: QueuedChange; message: string }[];
}

/** Waits between tries without signal: short, since each change is small and the crew is waiting. */
const RETRY_MS = [1_000, 2_000, 4_000, 8_000];
const RECENT_MS = 120_000;

export class Outbox {
  private snapshot: OutboxSnapshot = { pending: [], recent: [], waiting: false, refused: [] };
  private readonly listeners = new Set<() => void>();
  private readonly ready: Promise<void>;
  private sending = false;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly storage: OutboxStorage,
    private readonly send: (change: QueuedChange) => Promise<SendResult>,
  ) {
    this.ready = storage.load().then(
      (changes) => this.set({ pending: [...changes, ...this.snapshot.pending] }),
      () => undefined,
    );
  }

  /** For useSyncExternalStore. */
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.snapshot;

  /**
   * Queues a change and starts sending. A PUT to the same address as the last queued change (not yet on
   * its way) replaces it: typing notes queues one change, not one per key.
   */
  async add(change: Omit<QueuedChange, 'queuedAt'>): Promise<void> {
    await this.ready;
    const queued: QueuedChange = { ...change, queuedAt: new Date().toISOString() };
    const pending = [...this.snapshot.pending];
    const last = pending.at(-1);
    const replaceable =
      last &&
      change.method === 'PUT' &&
      last.method === 'PUT' &&
      last.path === change.path &&
      !(this.sending && pending.length === 1);
    if (replaceable) pending[pending.length - 1] = { ...queued, id: last.id };
    else pending.push(queued);
    this.set({ pending });
    await this.persist();
    void this.flush();
  }

  /** Sends what waits, in order, until it is all sent or the signal is gone. */
  async flush(): Promise<void> {
    await this.ready;
    if (this.sending) return;
    clearTimeout(this.retryTimer);
    this.sending = true;
    try {
      for (let change = this.snapshot.pending[0]; change; change = this.snapshot.pending[0]) {
        const result = await this.send(change).catch((): SendResult => ({ kind: 'retry' }));
        if (result.kind === 'retry') {
          this.set({ waiting: true });
          const delay = RETRY_MS[Math.min(this.attempt++, RETRY_MS.length - 1)]!;
          this.retryTimer = setTimeout(() => void this.flush(), delay);
          return;
        }
        this.attempt = 0;
        // Out of the kept queue before the page says so: a reload right after "Saved" finds it gone,
        // not waiting to be sent again. (The change on its way is never replaced (see add), so it is
        // still the first, even if more were queued meanwhile.)
        await this.storage.save(this.snapshot.pending.slice(1)).catch(() => undefined);
        const now = Date.now();
        this.set({
          pending: this.snapshot.pending.slice(1),
          waiting: false,
          recent: [...this.snapshot.recent.filter((r) => now - r.sentAt < RECENT_MS), { change, sentAt: now }],
          refused:
            result.kind === 'refused'
              ? [...this.snapshot.refused, { change, message: result.message }]
              : this.snapshot.refused,
        });
        await this.persist();
      }
    } finally {
      this.sending = false;
    }
  }

  /** Forgets the refusals shown (the person read them). */
  dismissRefused(): void {
    this.set({ refused: [] });
  }

  private set(changes: Partial<OutboxSnapshot>) {
    this.snapshot = { ...this.snapshot, ...changes };
    for (const listener of this.listeners) listener();
  }

  private persist() {
    return this.storage.save([...this.snapshot.pending]).catch(() => undefined);
  }
}

/** How a fetch answer counts: 2xx sent; no answer, 408, 429 or 5xx later; any other 4xx refused. */
export async function classifyResponse(response: Response): Promise<SendResult> {
  if (response.ok) return { kind: 'sent' };
  if (response.status === 401 || response.status === 408 || response.status === 429 || response.status >= 500)
    return { kind: 'retry' };
  const body = (await response.json().catch(() => undefined)) as { message?: string } | undefined;
  return { kind: 'refused', message: body?.message ?? response.statusText };
}
