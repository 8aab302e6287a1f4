import type { Db } from './client';

/**
 * A statement prepared once per database (drizzle's `.prepare(name)`): the SQL is built once, and
 * PostgreSQL parses it once per connection and, after its first runs, plans it only when a generic
 * plan would cost more than one made for the values. On PGlite drizzle's driver ignores the name: the
 * database's worker prepares every statement run twice by itself (pglite-statements.ts). For the
 * queries every staff request or list page runs; one-off queries stay plain (decision 006).
 */
export function preparedStatement<T>(build: (db: Db) => T): (db: Db) => T {
  const byDatabase = new WeakMap<Db, T>();
  return (db) => {
    let statement = byDatabase.get(db);
    if (!statement) {
      statement = build(db);
      byDatabase.set(db, statement);
    }
    return statement;
  };
}
