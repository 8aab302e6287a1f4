import { asc, inArray, sql } from 'drizzle-orm';
import type { ClientImportPreview, ClientImportResult } from '#shared/schemas/client-import';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { clientAddresses, clients } from './tables';
import type { ImportedClient, ParsedImport } from './import-file';
import { phoneDigitsOf, refreshSearchText } from './repository';

/** Statements carry this many rows at a time (PostgreSQL takes at most 65,535 parameters). */
const CHUNK = 500;
/** Clients per transaction of an import: a few tens of milliseconds of the database each. */
const IMPORT_CHUNK = 200;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The e-mails (lower-case) of these that are already clients. */
async function existingEmails(db: DbOrTx, emails: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(emails.map((e) => e.toLowerCase()))) {
    const rows = await db
      .select({ email: sql<string>`lower(${clients.email})` })
      .from(clients)
      .where(inArray(sql`lower(${clients.email})`, part));
    for (const r of rows) found.add(r.email);
  }
  return found;
}

/**
 * The clients already on file with these phones' digits, by digits: what a row without an e-mail is
 * merged into (as a phoned-in request is matched: the one with an e-mail first, then the oldest).
 */
async function existingPhones(db: DbOrTx, digits: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const part of chunks([...new Set(digits)])) {
    const rows = await db
      .select({ id: clients.id, digits: clients.phoneDigits })
      .from(clients)
      .where(inArray(clients.phoneDigits, part))
      .orderBy(sql`${clients.email} = ''`, asc(clients.createdAt), asc(clients.id));
    for (const r of rows) if (!found.has(r.digits)) found.set(r.digits, r.id);
  }
  return found;
}

/** Which of the file's clients are on file already: by e-mail, or without one by phone. */
async function existingOf(db: DbOrTx, part: ImportedClient[]) {
  const emails = await existingEmails(
    db,
    part.filter((c) => c.email).map((c) => c.email),
  );
  const phones = await existingPhones(
    db,
    part.filter((c) => !c.email).map((c) => phoneDigitsOf(c.phone)),
  );
  return (c: ImportedClient) => (c.email ? emails.has(c.email.toLowerCase()) : phones.has(phoneDigitsOf(c.phone)));
}

const addressLine = (a: { street: string; city: string; state: string; zip: string }) =>
  `${a.street}, ${a.city}, ${a.state} ${a.zip}`;

export async function previewImport(db: Db, parsed: ParsedImport): Promise<ClientImportPreview> {
  const isExisting = await existingOf(db, parsed.clients);
  const existingClients = parsed.clients.filter(isExisting).length;
  return {
    source: parsed.source,
    columns: parsed.columns,
    rows: parsed.rows,
    clients: parsed.clients.length,
    newClients: parsed.clients.length - existingClients,
    existingClients,
    sample: parsed.clients.slice(0, 10).map((c) => ({
      name: c.name,
      email: c.email,
      phone: c.phone,
      address: c.addresses[0] ? addressLine(c.addresses[0]) : '',
      existing: isExisting(c),
    })),
    refused: parsed.refused,
  };
}

const billingOf = (c: ImportedClient) => c.billing ?? { street: '', city: '', state: '', zip: '' };

/** Clients with an e-mail: made, or merged into the client with that e-mail. Their ids by lower-case e-mail. */
async function upsertByEmail(tx: DbOrTx, part: ImportedClient[]) {
  const ids = new Map<string, string>();
  if (part.length === 0) return ids;
  const values = sql.join(
    part.map((c) => {
      const b = billingOf(c);
      return sql`(${newId()}, ${c.name}, ${c.email}, ${c.phone}, ${phoneDigitsOf(c.phone)}, ${c.notes},
        ${b.street}, ${b.city}, ${b.state}, ${b.zip})`;
    }),
    sql`, `,
  );
  // Drizzle names conflict targets by column only; the unique index is on lower(email) where there is one.
  const { rows } = (await tx.execute(sql`
    insert into ${clients} (id, name, email, phone, phone_digits, notes,
      billing_street, billing_city, billing_state, billing_zip) values ${values}
    on conflict (lower(email)) where email <> '' do update set
      phone = case when ${clients}.phone = '' then excluded.phone else ${clients}.phone end,
      phone_digits = case when ${clients}.phone = '' then excluded.phone_digits else ${clients}.phone_digits end,
      notes = case when ${clients}.notes = '' then excluded.notes else ${clients}.notes end,
      ${fillBilling},
      updated_at = now()
    returning id, email`)) as { rows: { id: string; email: string }[] };
  for (const r of rows) ids.set(r.email.toLowerCase(), r.id);
  return ids;
}

/** A billing address given where the client had none. */
const fillBilling = sql.raw(
  ['street', 'city', 'state', 'zip']
    .map(
      (f) =>
        `billing_${f} = case when clients.billing_street = '' then excluded.billing_${f} else clients.billing_${f} end`,
    )
    .join(', '),
);

/**
 * Clients without an e-mail: merged into the client on file with their phone, or made (the index on
 * phones without e-mail keeps one per phone). Their ids by phone digits.
 */
async function upsertByPhone(tx: DbOrTx, part: ImportedClient[]) {
  const ids = await existingPhones(
    tx,
    part.map((c) => phoneDigitsOf(c.phone)),
  );
  if (part.length === 0) return ids;
  const values = sql.join(
    part.map((c) => {
      const b = billingOf(c);
      const known = ids.get(phoneDigitsOf(c.phone));
      return sql`(${known ?? newId()}, ${c.name}, '', ${c.phone}, ${phoneDigitsOf(c.phone)}, ${c.notes},
        ${b.street}, ${b.city}, ${b.state}, ${b.zip})`;
    }),
    sql`, `,
  );
  // One row per client on file (a known one is updated through its id), the rest made.
  const { rows } = (await tx.execute(sql`
    insert into ${clients} (id, name, email, phone, phone_digits, notes,
      billing_street, billing_city, billing_state, billing_zip) values ${values}
    on conflict (id) do update set
      notes = case when ${clients}.notes = '' then excluded.notes else ${clients}.notes end,
      ${fillBilling},
      updated_at = now()
    returning id, phone_digits`)) as { rows: { id: string; phone_digits: string }[] };
  for (const r of rows) ids.set(r.phone_digits, r.id);
  return ids;
}

/** The clients of one chunk, in a transaction of its own. */
async function importChunk(tx: DbOrTx, part: ImportedClient[]) {
  const isExisting = await existingOf(tx, part);
  const merged = part.filter(isExisting).length;
  const byEmail = await upsertByEmail(
    tx,
    part.filter((c) => c.email),
  );
  const byPhone = await upsertByPhone(
    tx,
    part.filter((c) => !c.email),
  );
  const idOf = (c: ImportedClient) =>
    c.email ? byEmail.get(c.email.toLowerCase())! : byPhone.get(phoneDigitsOf(c.phone))!;
  let addressesAdded = 0;
  const addresses = part.flatMap((c) => c.addresses.map((a) => ({ id: newId(), clientId: idOf(c), ...a })));
  for (const some of chunks(addresses)) {
    const added = await tx
      .insert(clientAddresses)
      .values(some)
      .onConflictDoNothing()
      .returning({ id: clientAddresses.id });
    addressesAdded += added.length;
  }
  // What the Clients search reads, for everyone touched, in one statement.
  await refreshSearchText(tx, [...new Set(part.map(idOf))]);
  return { created: part.length - merged, merged, addressesAdded };
}

/** Lets requests that came in meanwhile (a page, /api/health) run before the next chunk. */
const yieldToOthers = () => new Promise((resolve) => setTimeout(resolve, 1));

/**
 * Imports the file's clients, CHUNK at a time, each chunk a transaction of its own with a pause
 * between them (decision 024): on the embedded database a transaction holds the only connection,
 * and 20,000 clients in one kept every other request waiting for the whole import. A new e-mail makes
 * a client; a known one is merged (their name kept, an empty phone or notes filled in, new properties
 * added). Importing the same file again changes nothing, so a failure half-way is finished by
 * importing the file again.
 */
export async function importClients(db: Db, parsed: ParsedImport): Promise<ClientImportResult> {
  const total = { created: 0, merged: 0, addressesAdded: 0 };
  for (const part of chunks(parsed.clients, IMPORT_CHUNK)) {
    const done = await db.transaction((tx) => importChunk(tx, part));
    total.created += done.created;
    total.merged += done.merged;
    total.addressesAdded += done.addressesAdded;
    await yieldToOthers();
  }
  return { ...total, refused: parsed.refused };
}
