/**
 * A worker that does its work again at once while there was some, and otherwise waits `pollMs` or
 * until it is woken (`kick`), until stopped: the mail relay and the webhook relay.
 */
export class PollingLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private kicked = false;

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

  /** Stops; a round under way is finished first. */
  async stop(): Promise<void> {
    this.running = false;
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
