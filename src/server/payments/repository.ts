import { and, asc, eq, gt, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { checkoutSessions, paymentAccounts, paymentEvents, paymentLeases, type OnlineFor } from './tables';

export type CheckoutRow = typeof checkoutSessions.$inferSelect;
export type AccountRow = typeof paymentAccounts.$inferSelect;

export async function readAccount(db: DbOrTx): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(paymentAccounts).where(eq(paymentAccounts.id, 1));
  return row;
}

export async function writeAccount(
  db: DbOrTx,
  values: { secretKeySealed?: string; webhookSecretSealed?: string | null; onlineFor: OnlineFor },
) {
  const existing = await readAccount(db);
  if (!existing) {
    if (!values.secretKeySealed) return false;
    await db.insert(paymentAccounts).values({ id: 1, ...values, secretKeySealed: values.secretKeySealed });
    return true;
  }
  await db
    .update(paymentAccounts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(paymentAccounts.id, 1));
  return true;
}

export const deleteAccount = (db: DbOrTx) => db.delete(paymentAccounts).where(eq(paymentAccounts.id, 1));

export async function openCheckoutOf(db: DbOrTx, invoiceId: string) {
  const [row] = await db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.invoiceId, invoiceId), eq(checkoutSessions.state, 'open')));
  return row;
}

export async function checkoutsOf(db: DbOrTx, invoiceId: string) {
  return db
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.invoiceId, invoiceId))
    .orderBy(asc(checkoutSessions.createdAt));
}

export async function checkoutBySession(db: DbOrTx, provider: string, sessionId: string) {
  const [row] = await db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.provider, provider), eq(checkoutSessions.sessionId, sessionId)));
  return row;
}

export const insertCheckout = (db: DbOrTx, row: typeof checkoutSessions.$inferInsert) =>
  db.insert(checkoutSessions).values(row);

export const updateCheckout = (db: DbOrTx, id: string, values: Partial<CheckoutRow>) =>
  db.update(checkoutSessions).set(values).where(eq(checkoutSessions.id, id));

/** The checkouts the reconciler asks about now (open or processing, their time come), oldest first. */
export const dueCheckouts = (db: DbOrTx, now: Date, limit: number) =>
  db
    .select()
    .from(checkoutSessions)
    .where(and(inArray(checkoutSessions.state, ['open', 'processing']), lte(checkoutSessions.nextCheckAt, now)))
    .orderBy(asc(checkoutSessions.nextCheckAt))
    .limit(limit);

/** The checkouts with money beyond the balance still to give back, whose time has come (oldest first). */
export const dueExcessRefunds = (db: DbOrTx, now: Date, limit: number) =>
  db
    .select()
    .from(checkoutSessions)
    .where(and(gt(checkoutSessions.excessRefundCents, 0), lte(checkoutSessions.nextCheckAt, now)))
    .orderBy(asc(checkoutSessions.nextCheckAt))
    .limit(limit);

/** Takes an event id once: false when it was already taken (a replay). */
export async function takeEvent(db: DbOrTx, id: string, type: string): Promise<boolean> {
  const rows = await db
    .insert(paymentEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return rows.length === 1;
}

/**
 * Takes (or keeps) the lease `name` until `until`: one statement, so of several processes one holds it.
 * True when this holder has it.
 */
export async function takeLease(db: DbOrTx, name: string, holder: string, now: Date, until: Date): Promise<boolean> {
  const rows = await db
    .insert(paymentLeases)
    .values({ name, holder, until })
    .onConflictDoUpdate({
      target: paymentLeases.name,
      set: { holder, until },
      setWhere: or(lt(paymentLeases.until, now), eq(paymentLeases.holder, holder)),
    })
    .returning({ holder: paymentLeases.holder });
  return rows.length === 1 && rows[0]!.holder === holder;
}

export const releaseLease = (db: DbOrTx, name: string, holder: string) =>
  db
    .update(paymentLeases)
    .set({ until: sql`now() - interval '1 second'` })
    .where(and(eq(paymentLeases.name, name), eq(paymentLeases.holder, holder)));
