/** `kickIn`'s moments are rounded up to this. */
const WAKE_GRAIN_MS = 100;

/**
 * A worker that does its work again at once while there was some, and otherwise waits `pollMs` or
 * until it is woken (`kick` now, `kickIn` later), until stopped: the mail relay and the webhook relay.
 * Work it scheduled itself (a retry with backoff) wakes it when due, whatever the poll: the poll is
 * only for what another process left (a claim whose process died).
 */
export class PollingLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private kicked = false;
  /** The timers of `kickIn`, by the moment (rounded up to WAKE_GRAIN_MS) they fire. */
  private readonly later = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly options: {
      /** One round of work; how many items it did (0: nothing was due). */
      work: () => Promise<number>;
      pollMs: number;
      /** A round that threw: told, and the loop goes on. */
      failed: (error: unknown) => void;
      /** Before each wait, with when the next round is. */
      waiting?: (next: Date) => void;
    },
  ) {}

  get started(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Work now rather than at the next poll. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /**
   * Work in `ms` (something falls due then, such as a retry). Moments are rounded up to
   * WAKE_GRAIN_MS: a thousand messages failing in one round keep one timer, not a thousand.
   */
  kickIn(ms: number): void {
    if (!this.running) return;
    const at = Math.ceil((Date.now() + Math.max(0, ms)) / WAKE_GRAIN_MS) * WAKE_GRAIN_MS;
    if (this.later.has(at)) return;
    const timer = setTimeout(() => {
      this.later.delete(at);
      this.kick();
    }, at - Date.now());
    timer.unref();
    this.later.set(at, timer);
  }

  /** Stops; a round under way is finished first. */
  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.later.values()) clearTimeout(timer);
    this.later.clear();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { work, pollMs, failed, waiting } = this.options;
    while (this.running) {
      this.kicked = false;
      let done = 0;
      try {
        done = await work();
      } catch (error) {
        failed(error);
      }
      if (done === 0 && !this.kicked && this.running) {
        waiting?.(new Date(Date.now() + pollMs));
        await this.sleep(pollMs);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
