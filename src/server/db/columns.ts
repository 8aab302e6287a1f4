import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, customType, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers every feature's tables use (each feature declares its own tables in its tables.ts). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** A CHECK that a text column holds one of the listed values (the lists in src/shared/statuses.ts). */
export const oneOf = (name: string, column: AnyPgColumn, values: readonly string[]) =>
  check(name, sql`${column} in (${sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '))})`);

export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
