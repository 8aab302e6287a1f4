import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { pdfPool, type PdfPool } from './pool';
import { stageBytes, storedBytes, storeBytes } from './repository';

/** A document as it stands: what it is drawn from (its version) and how to draw it. */
export interface DocumentSource {
  /** A fingerprint of everything the document prints: the stored copy serves while it is the same. */
  version: string;
  filename: string;
  draw(): Promise<Buffer>;
  /** Where the feature keeps it instead of the documents table (a job's report stays on its record). */
  stored?(): Promise<Buffer | undefined>;
  /** Stores the bytes, given as a value the database copies in one statement (see `stageBytes`). */
  save?(bytes: SQL): Promise<void>;
}

export interface StoredDocument {
  filename: string;
  contentType: 'application/pdf';
  bytes: Buffer;
}

/** A short, stable fingerprint of plain data; a Buffer (a logo) counts by its hash. */
export function fingerprint(...parts: unknown[]): string {
  const plain = parts.map((p) =>
    Buffer.isBuffer(p) ? `buffer:${createHash('sha256').update(p).digest('hex')}` : p === undefined ? null : p,
  );
  return createHash('sha256').update(JSON.stringify(plain)).digest('base64url').slice(0, 32);
}

/**
 * Documents drawn once and served as stored (decision 022). Each feature says how its kind of document
 * is made (`register`); `current('invoice:<id>')` answers the stored copy while its version stands,
 * else draws it in the PDF worker, outside any transaction, and keeps it. Two asks at once draw once.
 */
export class DocumentStore {
  private readonly sources = new Map<string, (id: string) => Promise<DocumentSource | undefined>>();
  private readonly drawing = new Map<string, Promise<StoredDocument | undefined>>();
  private readonly draws = new Map<string, number>();
  /** Drawings started after a commit go one at a time: a burst of sends does not crowd the database. */
  private readonly background = pLimit(1);

  private readonly drawnListeners = new Set<() => void>();
  /**
   * The documents read or drawn lately, by key and version: the two e-mails of a job's report, a link
   * opened again, read the bytes once. On the embedded database a 14 MB read holds the process for about
   * a second each time. Bounded in bytes and time.
   */
  private readonly recent = new LRUCache<string, Buffer>({
    maxSize: 48 * 1024 * 1024,
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
    ttl: 5 * 60_000,
  });

  constructor(
    private readonly db: Db,
    private readonly pool: PdfPool = pdfPool,
  ) {}

  register(kind: string, source: (id: string) => Promise<DocumentSource | undefined>): void {
    this.sources.set(kind, source);
  }

  /** Draws with the worker's renderer of `kind` (see src/server/pdf-worker.ts). */
  draw(kind: string, args: unknown[]): Promise<Buffer> {
    return this.pool.draw(kind, args);
  }

  /** How many PDFs this process drew. */
  get drawn(): number {
    return this.pool.drawn;
  }

  /** How many times this store drew the document `key` (what the tests and the bench count). */
  drawsOf(key: string): number {
    return this.draws.get(key) ?? 0;
  }

  /** `listener` hears every document drawn in the background (the mail relay, waiting for its attachments). */
  whenDrawn(listener: () => void): void {
    this.drawnListeners.add(listener);
  }

  /**
   * Draws `key` in the background after the commit that made it, then tells `whenDrawn`'s listeners; a
   * failure is only reported to `fail`: the relay or the link draws it when asked.
   */
  soon(key: string, fail: (error: unknown) => void): void {
    void this.background(() => this.current(key)).then(
      () => this.drawnListeners.forEach((listener) => listener()),
      fail,
    );
  }

  /**
   * Once the drawings started in the background so far are done (they go one at a time, in order): a
   * test that compares the documents table with what was read from it waits for this first.
   */
  async settled(): Promise<void> {
    await this.background(async () => {});
  }

  /** The document `kind:id` as it stands now; undefined when there is no such document. */
  current(key: string): Promise<StoredDocument | undefined> {
    // Asks for one document at once share one answer (and at most one drawing).
    let pending = this.drawing.get(key);
    if (!pending) {
      pending = this.resolve(key).finally(() => this.drawing.delete(key));
      this.drawing.set(key, pending);
    }
    return pending;
  }

  /**
   * The stored copy of `key` if its version stands, without drawing: else 'drawing' (a drawing is
   * started in the background, one at a time, then `drawn` is called), or undefined (no such document).
   * For the mail relay, which must not wait for a drawing while other mail is due.
   */
  async ifReady(key: string, drawn: () => void): Promise<StoredDocument | 'drawing' | undefined> {
    const found = await this.resolve(key, false);
    if (found !== 'drawing') return found;
    void this.background(() => this.current(key)).then(drawn, () => undefined);
    return 'drawing';
  }

  private async resolve(key: string): Promise<StoredDocument | undefined>;
  private async resolve(key: string, draw: false): Promise<StoredDocument | 'drawing' | undefined>;
  private async resolve(key: string, draw = true): Promise<StoredDocument | 'drawing' | undefined> {
    const colon = key.indexOf(':');
    const source = this.sources.get(key.slice(0, colon));
    if (!source) throw new Error(`No such kind of document: ${key}`);
    const document = await source(key.slice(colon + 1));
    if (!document) return undefined;
    const cacheKey = `${key}@${document.version}`;
    const stored =
      this.recent.get(cacheKey) ??
      (document.stored ? await document.stored() : await storedBytes(this.db, key, document.version));
    if (stored) {
      this.recent.set(cacheKey, stored);
      return { filename: document.filename, contentType: 'application/pdf', bytes: stored };
    }
    if (!draw) return 'drawing';
    const bytes = await document.draw();
    this.draws.set(key, this.drawsOf(key) + 1);
    if (document.save) {
      const staged = await stageBytes(this.db, bytes);
      try {
        await document.save(staged.value);
      } finally {
        await staged.drop();
      }
    } else await storeBytes(this.db, key, document.version, bytes);
    this.recent.set(cacheKey, bytes);
    return { filename: document.filename, contentType: 'application/pdf', bytes };
  }
}
