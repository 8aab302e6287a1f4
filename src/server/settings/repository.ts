import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { settings } from './tables';

export type SettingsRow = Omit<typeof settings.$inferSelect, 'logo'> & { hasLogo: boolean };
export type SettingsValues = Omit<typeof settings.$inferInsert, 'id' | 'logo' | 'updatedAt'>;

const ROW_ID = 1;

const { logo, ...withoutLogo } = getTableColumns(settings);

/** The settings row without the logo's bytes; undefined before the first start seeded it. */
export async function readSettings(db: DbOrTx): Promise<SettingsRow | undefined> {
  const [row] = await db
    .select({ ...withoutLogo, hasLogo: sql<boolean>`${logo} is not null` })
    .from(settings)
    .where(eq(settings.id, ROW_ID));
  return row;
}

/** Writes the first values unless the row exists: every start calls it, the first one wins. */
export async function seedSettings(db: DbOrTx, values: SettingsValues): Promise<void> {
  await db
    .insert(settings)
    .values({ id: ROW_ID, ...values })
    .onConflictDoNothing({ target: settings.id });
}

export async function writeSettings(db: DbOrTx, values: Partial<SettingsValues>): Promise<void> {
  await db
    .update(settings)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(settings.id, ROW_ID));
}

export async function writeLogo(db: DbOrTx, png: Buffer | null): Promise<void> {
  await db.update(settings).set({ logo: png, updatedAt: new Date() }).where(eq(settings.id, ROW_ID));
}

/** The logo's bytes with the time they were written (which names their version). */
export async function readLogo(db: DbOrTx): Promise<{ png: Buffer | undefined; updatedAt: Date } | undefined> {
  const [row] = await db
    .select({ logo: settings.logo, updatedAt: settings.updatedAt })
    .from(settings)
    .where(eq(settings.id, ROW_ID));
  return row && { png: row.logo ?? undefined, updatedAt: row.updatedAt };
}

/**
 * Whether the database knows the zone by this name (PostgreSQL's and PGlite's pg_timezone_names,
 * as `at time zone` reads it, without regard to case): the runtime's list is not the same
 * (`US/Pacific-New` is still in ICU, long gone from the tz database).
 */
export async function databaseKnowsZone(db: DbOrTx, name: string): Promise<boolean> {
  const result = (await db.execute(
    sql`select exists(select 1 from pg_timezone_names where lower(name) = lower(${name})) as known`,
  )) as { rows: { known: boolean }[] };
  return result.rows[0]?.known === true;
}
