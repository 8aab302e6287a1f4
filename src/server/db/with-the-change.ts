import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Tx } from './client';

/**
 * A write that must be stored together with a request's change (the audit trail's entry): the first
 * transaction that commits while the request runs carries it, just before its commit, so the change
 * and the write are kept together or not at all. Once per request.
 */
export interface CarriedWrite {
  write(tx: Tx): Promise<void>;
  /** pending → carried by a transaction (then written) → done once it committed; closed when the request ended without one. */
  state: 'pending' | 'carried' | 'done' | 'closed';
}

const current = new AsyncLocalStorage<CarriedWrite>();

/** Runs `fn` (a route's handler) with `write` waiting for the first transaction that commits. */
export function carryInNextTransaction<T>(carried: CarriedWrite, fn: () => T): T {
  return current.run(carried, fn);
}

/**
 * Makes `db.transaction` carry the request's pending write. Savepoints (`tx.transaction`) are not
 * commits and are left alone; transactions outside a request (the mail relay, backups) carry nothing.
 */
export function carryPendingWrites(db: Db): void {
  const open = db.transaction.bind(db);
  db.transaction = (async (run: Parameters<Db['transaction']>[0], config?: Parameters<Db['transaction']>[1]) => {
    const carried = current.getStore();
    if (!carried || carried.state !== 'pending') return open(run, config);
    let mine = false;
    try {
      const result = await open(async (tx) => {
        const value = await run(tx);
        // Another transaction of the same request may have taken it meanwhile (Promise.all).
        if (carried.state === 'pending') {
          carried.state = 'carried';
          mine = true;
          await carried.write(tx);
        }
        return value;
      }, config);
      if (mine) carried.state = 'done';
      return result;
    } catch (error) {
      // Rolled back (by the change or by the write): the write is pending again, for the request's end to decide.
      if (mine) carried.state = 'pending';
      throw error;
    }
  }) as Db['transaction'];
}
