/**
 * What the app's thread and the embedded database's worker thread say to each other (decision 053):
 * every call carries an id, and its answer the same id.
 */
import type { Results } from '@electric-sql/pglite';

export interface OpenDatabase {
  dataDir: string;
  /** A data directory's tar to start from (the tests' template, or the machine's kept fresh cluster). */
  load?: Uint8Array | undefined;
}

/** Every call but `open` names the database it is for (the worker holds every one the process opened). */
export type ToWorker =
  | ({ id: number; type: 'open' } & OpenDatabase)
  | {
      id: number;
      db: number;
      type: 'query';
      /** The open transaction this runs in, or none (a statement of its own, after any open transaction). */
      tx?: number | undefined;
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /** Type ids whose values come back as the database's text: the app's thread parses them. */
      raw: number[];
    }
  | { id: number; db: number; type: 'exec'; tx?: number | undefined; sql: string }
  | { id: number; db: number; type: 'begin' }
  | { id: number; db: number; type: 'end'; tx: number; commit: boolean }
  | { id: number; db: number; type: 'dump' }
  | { id: number; db: number; type: 'copy'; target: string }
  | { id: number; db: number; type: 'close' };

/** An error as it crosses the thread: its message, name and the database's fields (code, detail, constraint…). */
export interface CrossingError {
  message: string;
  name: string;
  stack?: string | undefined;
  fields: Record<string, string | number | boolean>;
}

export type FromWorker =
  { id: number; type: 'done'; result: unknown } | { id: number; type: 'error'; error: CrossingError };

export type PlainResults = Pick<Results<unknown>, 'rows' | 'fields' | 'affectedRows'>;

export function toCrossing(error: unknown): CrossingError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: CrossingError['fields'] = {};
  for (const [key, value] of Object.entries(error))
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean;
  return { message: error.message, name: error.name, stack: error.stack, fields };
}

export function fromCrossing(crossing: CrossingError): Error {
  const error = Object.assign(new Error(crossing.message), crossing.fields);
  error.name = crossing.name;
  if (crossing.stack) error.stack = crossing.stack;
  return error;
}
