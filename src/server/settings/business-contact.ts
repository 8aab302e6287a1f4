import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * The business's name and phone as the database has them, for the "back soon" page after a failed
 * upgrade (decision 034): read by plain SQL with the columns every version has, or `fallback` (the
 * configuration's) when even that cannot be read.
 */
export async function businessContact(
  db: Db,
  fallback: { name: string; phone: string },
): Promise<{ name: string; phone: string }> {
  try {
    const found = (await db.execute(
      sql`select business_name, business_phone from settings where id = 1`,
    )) as unknown as { rows: { business_name: string; business_phone: string }[] };
    const row = found.rows[0];
    return row ? { name: row.business_name, phone: row.business_phone } : fallback;
  } catch {
    return fallback;
  }
}
