// The PDF worker's entry (decision 022): draws the documents the pool sends it, off the event loop.
import { parentPort } from 'node:worker_threads';
import { renderInvoicePdf } from './invoices/pdf';
import { renderJobReport } from './job-records/report-pdf';
import { renderQuotePdf } from './quotes/pdf';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const renderers: Record<string, (...args: any[]) => Promise<Buffer>> = {
  invoice: renderInvoicePdf,
  quote: renderQuotePdf,
  'job-report': renderJobReport,
};

/** Bytes cross the thread as Uint8Array; pdfkit draws images only from Buffers. */
function revive(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === 'object' && !(value instanceof Date))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]));
  return value;
}

parentPort!.on('message', async ({ kind, args }: { kind: string; args: unknown[] }) => {
  try {
    const render = renderers[kind];
    if (!render) throw new Error(`No such document: ${kind}`);
    const bytes = await render(...(revive(args) as unknown[]));
    parentPort!.postMessage({ bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
