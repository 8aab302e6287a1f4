/**
 * Bytes (photos, signatures, documents) between the embedded database and the app as Node's own hex
 * codec reads and writes them. PGlite's own went a byte at a time in JavaScript (a `parseInt` per pair
 * of hex digits, an array of strings joined): about 11 MB/s, so reading a job's 60 photos took the
 * process six seconds (decision 028, session 36). The database's text form of bytea is `\x` and hex.
 */
export const pgliteBytes = {
  parse: (text: string): Buffer => Buffer.from(text.slice(2), 'hex'),
  serialize: (value: unknown): string => {
    if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  },
};

/** PostgreSQL's type id of bytea. */
export const BYTEA = 17;

/**
 * The settings the embedded database starts with. PGlite's default shared_buffers (160 MB) is sized for a
 * server of its own; beside the app 32 MB keeps the working set of a small business's data.
 */
export const PGLITE_SETTINGS = ['shared_buffers=32MB'];
