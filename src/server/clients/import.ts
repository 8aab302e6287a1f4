import { inArray, sql } from 'drizzle-orm';
import type { ClientImportPreview, ClientImportResult } from '#shared/schemas/client-import';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { clientAddresses, clients } from './tables';
import type { ParsedImport } from './import-file';
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

const addressLine = (a: { street: string; city: string; state: string; zip: string }) =>
  `${a.street}, ${a.city}, ${a.state} ${a.zip}`;

export async function previewImport(db: Db, parsed: ParsedImport): Promise<ClientImportPreview> {
  const existing = await existingEmails(
    db,
    parsed.clients.map((c) => c.email),
  );
  const isExisting = (email: string) => existing.has(email.toLowerCase());
  const existingClients = parsed.clients.filter((c) => isExisting(c.email)).length;
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
      existing: isExisting(c.email),
    })),
    refused: parsed.refused,
  };
}

/** The clients of one chunk, in a transaction of its own. */
async function importChunk(tx: DbOrTx, part: ParsedImport['clients']) {
  const existing = await existingEmails(
    tx,
    part.map((c) => c.email),
  );
  const ids = new Map<string, string>();
  const values = sql.join(
    part.map((c) => sql`(${newId()}, ${c.name}, ${c.email}, ${c.phone}, ${phoneDigitsOf(c.phone)}, ${c.notes})`),
    sql`, `,
  );
  // Drizzle names conflict targets by column only; the unique index is on lower(email).
  const { rows } = (await tx.execute(sql`
    insert into ${clients} (id, name, email, phone, phone_digits, notes) values ${values}
    on conflict (lower(email)) do update set
      phone = case when ${clients}.phone = '' then excluded.phone else ${clients}.phone end,
      phone_digits = case when ${clients}.phone = '' then excluded.phone_digits else ${clients}.phone_digits end,
      notes = case when ${clients}.notes = '' then excluded.notes else ${clients}.notes end,
      updated_at = now()
    returning id, email`)) as { rows: { id: string; email: string }[] };
  for (const r of rows) ids.set(r.email.toLowerCase(), r.id);
  let addressesAdded = 0;
  const addresses = part.flatMap((c) =>
    c.addresses.map((a) => ({ id: newId(), clientId: ids.get(c.email.toLowerCase())!, ...a })),
  );
  for (const some of chunks(addresses)) {
    const added = await tx
      .insert(clientAddresses)
      .values(some)
      .onConflictDoNothing()
      .returning({ id: clientAddresses.id });
    addressesAdded += added.length;
  }
  // What the Clients search reads, for everyone touched, in one statement.
  await refreshSearchText(tx, [...ids.values()]);
  const merged = part.filter((c) => existing.has(c.email.toLowerCase())).length;
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
