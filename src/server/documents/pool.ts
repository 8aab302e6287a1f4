import type { Worker } from 'node:worker_threads';
import { HttpError } from '../lib/http-errors';
import { startWorker } from '../lib/worker-script';

/** What the worker draws: a kind it knows (src/server/pdf-worker.ts) and the renderer's arguments. */
interface Task {
  kind: string;
  args: unknown[];
  resolve: (bytes: Buffer) => void;
  reject: (error: Error) => void;
}

/** Drawings waiting at most: beyond, a request is answered 503 rather than queued for minutes. */
const MAX_QUEUED = 200;
/** The worker's own heap: a runaway drawing fails alone, the server stays up. */
const WORKER_HEAP_MB = 512;

/** The PDF worker (src/server/pdf-worker.ts), with a heap of its own. */
const spawn = () => startWorker('pdf-worker', { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });

/**
 * PDFs are drawn here, one at a time, in one worker thread: a 200-line invoice or a report with many
 * photos costs the worker seconds, never the event loop (decision 022). The worker starts on first
 * use and does not keep the process alive.
 */
export class PdfPool {
  private worker: Promise<Worker> | undefined;
  private current: Task | undefined;
  private readonly queue: Task[] = [];
  /** How many drawings were made: what the tests and the bench count. */
  drawn = 0;

  draw(kind: string, args: unknown[]): Promise<Buffer> {
    if (this.queue.length >= MAX_QUEUED)
      return Promise.reject(
        new HttpError(503, 'Too many documents are being drawn: try again shortly', 'SERVICE_UNAVAILABLE'),
      );
    return new Promise((resolve, reject) => {
      this.queue.push({ kind, args, resolve, reject });
      this.next();
    });
  }

  /** Tasks waiting or under way. */
  get load() {
    return this.queue.length + (this.current ? 1 : 0);
  }

  private next() {
    if (this.current || this.queue.length === 0) return;
    const task = this.queue.shift()!;
    this.current = task;
    this.start().then(
      (worker) => {
        worker.ref();
        worker.postMessage({ kind: task.kind, args: task.args });
      },
      (error: Error) => {
        this.worker = undefined;
        this.current = undefined;
        task.reject(error);
        this.next();
      },
    );
  }

  private start(): Promise<Worker> {
    this.worker ??= spawn().then((worker) => this.listen(worker));
    return this.worker;
  }

  private listen(worker: Worker): Worker {
    worker.on('message', (message: { bytes?: Uint8Array; error?: string }) => {
      const task = this.current;
      this.current = undefined;
      worker.unref();
      if (task) {
        if (message.bytes) {
          this.drawn += 1;
          task.resolve(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
        } else task.reject(new Error(message.error ?? 'The PDF could not be drawn'));
      }
      this.next();
    });
    // A crash (out of its heap) fails the drawing under way; the next one starts a new worker.
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      this.worker = undefined;
      const task = this.current;
      this.current = undefined;
      task?.reject(error);
      this.next();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The PDF worker stopped (${code})`)));
    worker.unref();
    return worker;
  }

  /** Stops the worker (at shutdown); a later drawing starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await (await worker)?.terminate();
  }
}

/** One pool for the process: every app in it (tests build many) shares the one worker. */
export const pdfPool = new PdfPool();
