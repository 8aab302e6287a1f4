import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { MIN_PHONE_DIGITS, phoneDigitsOf } from '#shared/phone';
import type { MessageChannel } from '#shared/schemas/texts';
import type { ClientView } from '#shared/schemas/clients';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { preparedStatement } from '../db/prepared';
import { clientAddresses, clientCounts, clients } from './tables';
import { escapeLike, pageWindow } from '../lib/sql';
import { isUniqueViolation } from '../lib/db-errors';

export type ClientRow = typeof clients.$inferSelect;

export { phoneDigitsOf };

export interface ClientContact {
  name: string;
  email: string;
  phone: string;
}
export interface PropertyAddress {
  street: string;
  city: string;
  state: string;
  zip: string;
}

/** Name, e-mail, phone (and its bare digits) and every address, lower-case: what a search matches. */
export async function refreshSearchText(tx: DbOrTx, clientIds: string | string[]): Promise<void> {
  await tx
    .update(clients)
    .set({
      searchText: sql`lower(concat_ws(' ', ${clients.name}, ${clients.companyName}, ${clients.email}, ${clients.phone},
        regexp_replace(${clients.phone}, '[^0-9]', '', 'g'),
        ${clients.billingStreet}, ${clients.billingCity}, ${clients.billingZip},
        (select string_agg(concat_ws(' ', a.street, a.city, a.state, a.zip), ' ')
           from ${clientAddresses} a where a.client_id = ${clients.id})))`,
    })
    .where(typeof clientIds === 'string' ? eq(clients.id, clientIds) : inArray(clients.id, clientIds));
}

/**
 * The client a request belongs to: found by e-mail (case-insensitive) or created, in one statement
 * so two requests from a new client at once make one client. A known client keeps their name; an
 * empty phone is filled in. The address joins their properties if it is new. Without an e-mail (a
 * phoned-in request) the client is found by phone; their e-mail on file, if any, is returned.
 */
export async function matchClient(
  tx: DbOrTx,
  contact: ClientContact,
  address: PropertyAddress,
): Promise<{ id: string; email: string; serviceAddressId: string }> {
  const found = contact.email ? await matchByEmail(tx, contact) : await matchByPhone(tx, contact);
  const serviceAddressId = await ensureServiceAddress(tx, found.id, address);
  await refreshSearchText(tx, found.id);
  return { ...found, serviceAddressId };
}

/** The client's service address of this street and ZIP (any case), added if new; its id. */
async function ensureServiceAddress(tx: DbOrTx, clientId: string, address: PropertyAddress & { label?: string }) {
  await tx
    .insert(clientAddresses)
    .values({ id: newId(), clientId, ...address })
    .onConflictDoNothing();
  const [row] = await tx
    .select({ id: clientAddresses.id })
    .from(clientAddresses)
    .where(
      and(
        eq(clientAddresses.clientId, clientId),
        sql`lower(${clientAddresses.street}) = lower(${address.street})`,
        sql`lower(${clientAddresses.zip}) = lower(${address.zip})`,
      ),
    );
  return row!.id;
}

/** One of a client's service addresses (undefined when it is not theirs). */
export async function serviceAddressOf(db: DbOrTx, clientId: string, addressId: string) {
  const [row] = await db
    .select()
    .from(clientAddresses)
    .where(and(eq(clientAddresses.clientId, clientId), eq(clientAddresses.id, addressId)));
  return row;
}

/**
 * A new service address for a client (a second shop, a rental); false when they already have one of
 * that street and ZIP.
 */
export async function addServiceAddress(
  db: Db,
  clientId: string,
  address: PropertyAddress & { label: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(clientAddresses)
      .values({ id: newId(), clientId, ...address })
      .onConflictDoNothing()
      .returning({ id: clientAddresses.id });
    if (rows.length) await refreshSearchText(tx, clientId);
    return rows.length > 0;
  });
}

/** What a service address change needs from the features that copy it: the open jobs at it. */
export interface AddressUsers {
  /** The open jobs at the address: it is not removed from under them. */
  openJobsAt: (db: DbOrTx, addressId: string) => Promise<{ id: string; status: string }[]>;
  /** The open jobs at a corrected address follow it. */
  followChange: (tx: DbOrTx, addressId: string, address: PropertyAddress) => Promise<void>;
}

/**
 * A service address renamed or corrected (decision 037): 'missing' when it is not this client's, 'taken'
 * when another of theirs has that street and ZIP. Open jobs at it follow; requests keep the address they
 * were sent with, finished jobs the one they were done at.
 */
export async function changeServiceAddress(
  db: Db,
  clientId: string,
  addressId: string,
  address: PropertyAddress & { label: string },
  users: AddressUsers,
): Promise<'changed' | 'missing' | 'taken'> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .update(clientAddresses)
        .set(address)
        .where(and(eq(clientAddresses.clientId, clientId), eq(clientAddresses.id, addressId)))
        .returning({ id: clientAddresses.id });
      if (!row) return 'missing';
      await users.followChange(tx, addressId, address);
      await refreshSearchText(tx, clientId);
      return 'changed';
    });
  } catch (error) {
    if (isUniqueViolation(error)) return 'taken';
    throw error;
  }
}

/**
 * Removes a service address: the requests and finished jobs at it keep their copy of it (and lose only
 * the link, `on delete set null`); an open job at it must be moved first, named in `busy`.
 */
export async function removeServiceAddress(
  db: Db,
  clientId: string,
  addressId: string,
  users: AddressUsers,
): Promise<{ removed: boolean; busy: { id: string; status: string }[] }> {
  return db.transaction(async (tx) => {
    // Locked: a job moved to it meanwhile waits on its key check, then fails rather than point at nothing.
    const [row] = await tx
      .select({ id: clientAddresses.id })
      .from(clientAddresses)
      .where(and(eq(clientAddresses.clientId, clientId), eq(clientAddresses.id, addressId)))
      .for('update');
    if (!row) return { removed: false, busy: [] };
    const busy = await users.openJobsAt(tx, addressId);
    if (busy.length) return { removed: false, busy };
    await tx.delete(clientAddresses).where(eq(clientAddresses.id, addressId));
    await refreshSearchText(tx, clientId);
    return { removed: true, busy: [] };
  });
}

/** Where a client's bills go ('' when to the property) and their company: what an invoice prints. */
export async function billingOf(db: DbOrTx, clientId: string | null) {
  if (!clientId) return { billingAddress: '', companyName: '' };
  const row = await findClient(db, clientId);
  if (!row) return { billingAddress: '', companyName: '' };
  return {
    billingAddress: row.billingStreet
      ? `${row.billingStreet}, ${row.billingCity}, ${row.billingState} ${row.billingZip}`.replace(/, ,/g, ',').trim()
      : '',
    companyName: row.companyName,
  };
}

async function matchByEmail(tx: DbOrTx, contact: ClientContact) {
  // Drizzle names conflict targets by column only; the unique index is on lower(email) where there is one.
  const result = (await tx.execute(sql`
    insert into ${clients} (id, name, email, phone, phone_digits)
    values (${newId()}, ${contact.name}, ${contact.email}, ${contact.phone}, ${phoneDigitsOf(contact.phone)})
    on conflict (lower(email)) where email <> '' do update set
      phone = case when ${clients}.phone = '' then excluded.phone else ${clients}.phone end,
      phone_digits = case when ${clients}.phone = '' then excluded.phone_digits else ${clients}.phone_digits end,
      updated_at = now()
    returning id, email`)) as { rows: { id: string; email: string }[] };
  return result.rows[0]!;
}

/**
 * A client without an e-mail, by phone: whoever has these digits (the one with an e-mail first, then
 * the oldest), or a new client; two phone-ins at once make one (the index on phones without e-mail).
 */
async function matchByPhone(tx: DbOrTx, contact: ClientContact) {
  const digits = phoneDigitsOf(contact.phone);
  if (digits.length < MIN_PHONE_DIGITS) throw new Error('A client without an e-mail needs a phone number');
  const [known] = await tx
    .select({ id: clients.id, email: clients.email })
    .from(clients)
    .where(eq(clients.phoneDigits, digits))
    .orderBy(sql`${clients.email} = ''`, asc(clients.createdAt), asc(clients.id))
    .limit(1);
  if (known) return known;
  const result = (await tx.execute(sql`
    insert into ${clients} (id, name, email, phone, phone_digits)
    values (${newId()}, ${contact.name}, '', ${contact.phone}, ${digits})
    on conflict (phone_digits) where email = '' and phone_digits <> '' do update set updated_at = now()
    returning id, email`)) as { rows: { id: string; email: string }[] };
  return result.rows[0]!;
}

export function findClient(db: DbOrTx, id: string) {
  return db.query.clients.findFirst({ where: eq(clients.id, id) });
}

export async function clientViews(db: DbOrTx, rows: ClientRow[]): Promise<ClientView[]> {
  const ids = rows.map((r) => r.id);
  const addresses = ids.length
    ? await db
        .select()
        .from(clientAddresses)
        .where(inArray(clientAddresses.clientId, ids))
        .orderBy(asc(clientAddresses.createdAt), asc(clientAddresses.id))
    : [];
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    companyName: r.companyName,
    email: r.email,
    phone: r.phone,
    mobile: r.mobile,
    messageChannel: r.messageChannel,
    notes: r.notes,
    billingAddress: r.billingStreet
      ? { street: r.billingStreet, city: r.billingCity, state: r.billingState, zip: r.billingZip }
      : null,
    createdAt: r.createdAt.toISOString(),
    addresses: addresses
      .filter((a) => a.clientId === r.id)
      .map((a) => ({ _id: a.id, label: a.label, street: a.street, city: a.city, state: a.state, zip: a.zip })),
  }));
}

export async function updateClient(
  db: DbOrTx,
  id: string,
  input: {
    name: string;
    phone: string;
    notes: string;
    companyName?: string | undefined;
    billingAddress?: PropertyAddress | null | undefined;
    /** E.164 or '' (read by the route); left out, unchanged. */
    mobile?: string | undefined;
    messageChannel?: MessageChannel | undefined;
  },
): Promise<ClientRow | undefined> {
  const { billingAddress, companyName, mobile, messageChannel, ...values } = input;
  const billing =
    billingAddress === undefined
      ? {}
      : {
          billingStreet: billingAddress?.street ?? '',
          billingCity: billingAddress?.city ?? '',
          billingState: billingAddress?.state ?? '',
          billingZip: billingAddress?.zip ?? '',
        };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(clients)
      .set({
        ...values,
        ...billing,
        ...(companyName === undefined ? {} : { companyName }),
        ...(mobile === undefined ? {} : { mobile }),
        ...(messageChannel === undefined ? {} : { messageChannel }),
        phoneDigits: phoneDigitsOf(values.phone),
        updatedAt: new Date(),
      })
      .where(eq(clients.id, id))
      .returning();
    if (!row) return undefined;
    await refreshSearchText(tx, id);
    return row;
  });
}

const newestFirst = [desc(clients.createdAt), desc(clients.id)];
const oldestFirst = [asc(clients.createdAt), asc(clients.id)];

/** A page's rows: ids from the index alone (a deferred join), then those rows, newest first (as the request list). */
function pageRows(db: DbOrTx, where: SQL | undefined, fromOldest: boolean) {
  const ids = db
    .select({ id: clients.id })
    .from(clients)
    .where(where)
    .orderBy(...(fromOldest ? oldestFirst : newestFirst))
    .limit(sql.placeholder('take'))
    .offset(sql.placeholder('skip'));
  return db
    .select()
    .from(clients)
    .where(inArray(clients.id, ids))
    .orderBy(...newestFirst);
}

const prepared = preparedStatement((db) => ({
  newest: pageRows(db, undefined, false).prepare('clients_page_newest'),
  oldest: pageRows(db, undefined, true).prepare('clients_page_oldest'),
  count: db.select({ n: clientCounts.n }).from(clientCounts).where(eq(clientCounts.id, 1)).prepare('clients_count'),
}));

/**
 * What a search finds. A phone number, however it is written, matches the phones that end with its
 * digits (the whole number, or its last four: a prefix search on the reversed digits' index). Anything
 * else matches the words as typed, in order, anywhere in the client's name, e-mail, phone or addresses
 * (the trigram index: a phrase's trigrams narrow it at once, where separate short words would not).
 */
function searchWheres(search: string): SQL[] {
  const text = search.trim().toLowerCase().replace(/\s+/g, ' ');
  const digits = phoneDigitsOf(text);
  if (/^[0-9()+.\s-]+$/.test(text) && digits.length >= 4) {
    const reversed = [...digits].reverse().join('');
    // A number that is no phone's ending (a middle part, a ZIP code) is looked for in the rest.
    return [
      sql`reverse(${clients.phoneDigits}) like ${`${escapeLike(reversed)}%`}`,
      ilike(clients.searchText, `%${escapeLike(digits)}%`),
    ];
  }
  return [ilike(clients.searchText, `%${escapeLike(text)}%`)];
}

/**
 * One page of clients, newest first. Without a search the trigger-kept count and prepared pages
 * answer, the far half read from the oldest end (decision 004); a search counts its matches.
 */
export async function listClients(db: Db, search: string | undefined, page: number, limit: number) {
  if (search) {
    // The first way of matching that finds anyone.
    for (const where of searchWheres(search)) {
      const found = await searchPage(db, where, page, limit);
      if (found.total > 0) return found;
    }
    return { rows: [], total: 0 };
  }
  const statements = prepared(db);
  const total = Number((await statements.count.execute())[0]?.n ?? 0);
  const window = pageWindow(page, limit, total);
  if (!window) return { rows: [], total };
  const { fromOldest, ...values } = window;
  const rows = await statements[fromOldest ? 'oldest' : 'newest'].execute(values);
  return { rows, total };
}

async function searchPage(db: Db, where: SQL, page: number, limit: number) {
  const total = (await db.select({ n: count() }).from(clients).where(where))[0]?.n ?? 0;
  const window = pageWindow(page, limit, total);
  if (!window) return { rows: [], total };
  const { fromOldest, ...values } = window;
  const rows = await pageRows(db, where, fromOldest).execute(values);
  return { rows, total };
}
