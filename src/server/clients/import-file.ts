import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { LEADING_BLANKS, startsLikeFormula } from '../lib/csv';
import {
  CLIENT_IMPORT_MAX_ROWS,
  IMPORT_FIELDS,
  IMPORT_FIELD_LABELS,
  type ImportField,
} from '#shared/schemas/client-import';
import { z } from 'zod';
import { isReachable, phoneDigitsOf } from '#shared/phone';
import { addressInput, contactPersonInput } from '#shared/schemas/quote-request';

/** A file an import cannot read at all: the message says why and what to do; nothing was changed. */
export class ImportFileError extends Error {}

/**
 * Which headers fill which field, best first: the plain template's, Jobber's client export
 * ("E-mails", "Main Phone #s", "Service Street 1"…), Housecall Pro's customer export ("Mobile
 * Number", "Address"…) and common spellings. Headers are compared lower-case, letters and digits only.
 */
const SYNONYMS: Record<ImportField, string[]> = {
  name: ['name', 'fullname', 'clientname', 'customername', 'displayname', 'contactname'],
  firstName: ['firstname', 'first', 'givenname'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
  company: ['company', 'companyname', 'business', 'businessname', 'organization'],
  email: ['email', 'emailaddress', 'emails', 'email1', 'primaryemail', 'mainemail', 'personalemail', 'workemail'],
  phone: [
    'phone',
    'phonenumber',
    'mobile',
    'mobilenumber',
    'mobilephone',
    'mobilephones',
    'cell',
    'cellphone',
    'mainphone',
    'mainphones',
    'phones',
    'homephone',
    'homenumber',
    'homephones',
    'workphone',
    'worknumber',
    'workphones',
    'otherphone',
    'otherphones',
    'fax',
    'faxnumber',
    'faxphone',
    'faxphones',
  ],
  street: [
    'street',
    'streetaddress',
    'address',
    'address1',
    'addressline1',
    'street1',
    'servicestreet1',
    'servicestreet',
    'serviceaddress',
    'propertystreet1',
  ],
  street2: ['street2', 'address2', 'addressline2', 'unit', 'servicestreet2', 'propertystreet2'],
  city: ['city', 'town', 'servicecity', 'propertycity'],
  state: ['state', 'province', 'region', 'stateprovince', 'servicestate', 'propertystate'],
  zip: [
    'zip',
    'zipcode',
    'postalcode',
    'postcode',
    'servicezip',
    'servicezipcode',
    'servicepostalcode',
    'propertyzipcode',
  ],
  billingStreet: ['billingstreet1', 'billingstreet', 'billingaddress', 'billingaddress1', 'mailingaddress'],
  billingStreet2: ['billingstreet2', 'billingaddress2'],
  billingCity: ['billingcity', 'mailingcity'],
  billingState: ['billingstate', 'billingprovince', 'mailingstate'],
  billingZip: ['billingzip', 'billingzipcode', 'billingpostalcode', 'mailingzip'],
  notes: ['notes', 'note', 'comments', 'clientnotes', 'customernotes', 'description'],
};

const normalize = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Each header's field (null: not imported); a field takes the best-ranked header that names it, except
 * phones: every phone column is kept (Jobber's Main, Mobile, Work, Home, Fax and Other).
 */
export function mapColumns(headers: string[]): (ImportField | null)[] {
  const keys = headers.map(normalize);
  const mapping: (ImportField | null)[] = keys.map((k) => (SYNONYMS.phone.includes(k) ? 'phone' : null));
  for (const field of IMPORT_FIELDS) {
    if (field === 'phone') continue;
    for (const synonym of SYNONYMS[field]) {
      const at = keys.findIndex((k, i) => k === synonym && mapping[i] === null);
      if (at >= 0) {
        mapping[at] = field;
        break;
      }
    }
  }
  return mapping;
}

function sourceOf(headers: string[]): string {
  const keys = new Set(headers.map(normalize));
  if (
    keys.has('emails') ||
    keys.has('mainphones') ||
    keys.has('mobilephones') ||
    keys.has('servicestreet1') ||
    keys.has('billingstreet1')
  )
    return 'Jobber';
  if (keys.has('mobilenumber') || keys.has('homenumber') || keys.has('customerid')) return 'Housecall Pro';
  if (['name', 'email', 'phone', 'street', 'city', 'state', 'zip'].every((k) => keys.has(k))) return 'Template';
  return 'Columns matched by name';
}

/** Bytes as text: UTF-8 (with or without its mark) or UTF-16 with its mark; anything else is refused. */
function decode(bytes: Buffer): string {
  if (bytes.length === 0) throw new ImportFileError('The file is empty.');
  const head = bytes.subarray(0, 8);
  if (head.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004') {
    throw new ImportFileError(
      'This is an Excel workbook (.xlsx), not a CSV file. In your spreadsheet choose Save As → "CSV UTF-8", then import that file.',
    );
  }
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') throw new ImportFileError('This is a PDF, not a CSV file.');
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new ImportFileError(
        'This file is not UTF-8 text (it may be saved in an older encoding such as Windows-1252, or not be text at all). In your spreadsheet choose Save As → "CSV UTF-8", then import that file.',
      );
    }
  }
  if (text.includes('\u0000')) {
    throw new ImportFileError(
      'This file holds binary data, not CSV text. Export your clients as CSV and import that file.',
    );
  }
  return text;
}

/** The delimiter of the header line: a comma, or the semicolon or tab some spreadsheets write. */
function delimiterOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (c: string) => firstLine.split(c).length - 1;
  return [',', ';', '\t'].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
}

/**
 * A cell a spreadsheet would run: "=…" or "@…" (or their full-width forms), or "+"/"-" followed by
 * more than a phone number or a number is made of ("+1 (916) 555-0142" and "-5" are data; "-2+3"
 * and "+SUM(A1)" are formulas), whatever blanks come first.
 */
export function isFormula(cell: string): boolean {
  return startsLikeFormula(cell) && !/^[+-][\d\s().-]*$/.test(cell.replace(LEADING_BLANKS, ''));
}

type Address = { street: string; city: string; state: string; zip: string };

export interface ImportedClient {
  /** The rows it came from, as the spreadsheet numbers them (the header is row 1). */
  rows: number[];
  name: string;
  /** '' when the row had none: the client is matched by phone. */
  email: string;
  phone: string;
  notes: string;
  billing: Address | null;
  addresses: Address[];
}

export interface ParsedImport {
  source: string;
  columns: { header: string; field: ImportField | null }[];
  rows: number;
  clients: ImportedClient[];
  refused: { row: number; reason: string }[];
}

const listOf = (value: string) =>
  value
    .split(/[,;/\n]/)
    .map((v) => v.trim())
    .filter(Boolean);
const firstOf = (value: string) => listOf(value)[0] ?? '';

/** "Mobile Phone #s" → "Mobile"; "Phone" → "". */
const phoneLabel = (header: string) => header.replace(/phones?|numbers?|#s?/gi, '').trim();
const isFax = (header: string) => /fax/i.test(header);

/** Rows read or checked between two turns of the event loop: a 20,000-row file never holds it for long. */
const TURN = 500;

/** The file's records, read a slice at a time so that other requests are answered meanwhile. */
async function readRecords(text: string): Promise<string[][]> {
  const parser = parse({
    bom: true,
    delimiter: delimiterOf(text),
    relax_column_count: true,
    // Empty lines are records too, so a row's number is the spreadsheet's (they are passed over below).
    skip_empty_lines: false,
    trim: true,
    max_record_size: 64 * 1024,
    to: CLIENT_IMPORT_MAX_ROWS + 2,
  });
  const records: string[][] = [];
  const reading = (async () => {
    for await (const record of parser) {
      records.push(record as string[]);
      if (records.length % TURN === 0) await nextTurn();
    }
  })();
  try {
    for (let at = 0; at < text.length && !parser.writableEnded && !parser.destroyed; at += 64 * 1024) {
      if (!parser.write(text.slice(at, at + 64 * 1024))) await Promise.race([once(parser, 'drain'), reading]);
    }
    if (!parser.writableEnded) parser.end();
    await reading;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new ImportFileError(
      `The file is not valid CSV${line ? ` (near line ${line})` : ''}: check for a quote mark (") that is never closed.`,
    );
  }
  return records;
}

/** A row's cells by field; phones as every phone column's numbers with their column's label. */
function rowValues(mapping: (ImportField | null)[], headers: string[], cells: string[]) {
  const value: Partial<Record<ImportField, string>> = {};
  const phones: { label: string; number: string; fax: boolean }[] = [];
  mapping.forEach((field, column) => {
    const cell = cells[column];
    if (!field || !cell) return;
    if (field === 'phone') {
      const header = headers[column] ?? '';
      for (const number of listOf(cell)) phones.push({ label: phoneLabel(header), number, fax: isFax(header) });
    } else value[field] = cell;
  });
  return { value, phones };
}

/** Street, city, state and ZIP checked as a request's are: null when the row has none of them, a reason when incomplete. */
function addressOf(
  parts: { street?: string; street2?: string; city?: string; state?: string; zip?: string },
  what: string,
) {
  if (![parts.street, parts.city, parts.state, parts.zip].some(Boolean)) return { address: null };
  const parsed = addressInput.safeParse({
    street: [parts.street, parts.street2].filter(Boolean).join(', '),
    city: parts.city ?? '',
    state: parts.state ?? '',
    zip: parts.zip ?? '',
  });
  if (parsed.success) return { address: parsed.data };
  const missing = (['street', 'city', 'state', 'zip'] as const).filter((f) => !parts[f]);
  return {
    reason: missing.length
      ? `The ${what} is incomplete: ${missing.map((f) => IMPORT_FIELD_LABELS[f]).join(', ')} missing`
      : `${what[0]!.toUpperCase()}${what.slice(1)}: ${parsed.error.issues[0]!.message}`,
  };
}

type RowResult = { client: ImportedClient; key: string } | { reason: string };

/** One row as a client, or why it is refused (the rest of the file is imported all the same). */
function readRow(row: number, headers: string[], cells: string[], mapping: (ImportField | null)[]): RowResult {
  const formula = cells.findIndex(isFormula);
  if (formula >= 0) {
    const first = cells[formula]!.replace(LEADING_BLANKS, '')[0];
    return {
      reason: `Column "${headers[formula] ?? formula + 1}" starts with "${first}": a spreadsheet formula, not imported. Remove it and import the row again.`,
    };
  }
  const { value, phones } = rowValues(mapping, headers, cells);
  const name = value.name || [value.firstName, value.lastName].filter(Boolean).join(' ') || value.company || '';
  // The first number that is not a fax is the client's phone; every other one is kept in their notes.
  const main = phones.find((p) => !p.fax) ?? null;
  const contact = contactPersonInput.extend({ email: contactPersonInput.shape.email.or(z.literal('')) }).safeParse({
    name,
    email: firstOf(value.email ?? ''),
    phone: main?.number ?? '',
  });
  if (!contact.success) {
    const issue = contact.error.issues[0]!;
    const field = String(issue.path[0]);
    const label = field === 'name' ? 'Name' : field === 'email' ? 'E-mail' : 'Phone';
    return { reason: field === 'name' && !name ? 'Name is missing' : `${label}: ${issue.message}` };
  }
  if (!isReachable(contact.data)) return { reason: 'E-mail and phone are missing: one is needed to find the client' };
  const service = addressOf(value, 'address');
  if (service.reason) return { reason: service.reason };
  const billing = addressOf(
    {
      street: value.billingStreet,
      street2: value.billingStreet2,
      city: value.billingCity,
      state: value.billingState,
      zip: value.billingZip,
    },
    'billing address',
  );
  if (billing.reason) return { reason: billing.reason };
  const others = phones.filter((p) => p !== main).map((p) => (p.label ? `${p.label} ${p.number}` : p.number));
  const notes = [value.notes, others.length ? `Other phones: ${others.join(', ')}` : ''].filter(Boolean).join('\n');
  if (notes.length > 5000) return { reason: 'Notes: must be at most 5000 characters' };
  // A property: the service address, or (a file with only a billing address) the billing one, as before.
  const property = service.address ?? billing.address;
  const { email, phone } = contact.data;
  return {
    key: email ? email.toLowerCase() : `tel:${phoneDigitsOf(phone)}`,
    client: {
      rows: [row],
      name: contact.data.name,
      email,
      phone,
      notes,
      billing: billing.address ?? null,
      addresses: property ? [property] : [],
    },
  };
}

/**
 * Reads a clients CSV: decodes it, maps its columns by header, checks each row with the same rules
 * as a request's contact and address, and merges rows that share an e-mail (case-insensitive), or
 * without one a phone. A file that cannot be read throws ImportFileError; a row with a spreadsheet
 * formula is refused on its own, with its row number as the spreadsheet shows it.
 */
export async function parseClientCsv(bytes: Buffer): Promise<ParsedImport> {
  const text = decode(bytes);
  const records = await readRecords(text);
  const [headers, ...data] = records;
  const isEmpty = (cells: string[]) => cells.every((c) => !c);
  if (!headers || data.every(isEmpty))
    throw new ImportFileError('The file has no rows of clients under its header row.');
  if (data.length > CLIENT_IMPORT_MAX_ROWS) {
    throw new ImportFileError(
      `The file has more than ${CLIENT_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows: split it and import each part.`,
    );
  }
  const mapping = mapColumns(headers);
  const has = (field: ImportField) => mapping.includes(field);
  if (!has('email') && !has('phone')) {
    throw new ImportFileError(
      'No column of this file holds e-mail addresses or phone numbers: name one "Email" or "Phone" (see the template).',
    );
  }
  if (!has('name') && !has('firstName') && !has('lastName') && !has('company')) {
    throw new ImportFileError('No column of this file holds names: name one "Name", or "First name" and "Last name".');
  }

  const byKey = new Map<string, ImportedClient>();
  const refused: ParsedImport['refused'] = [];
  let rows = 0;
  for (const [index, cells] of data.entries()) {
    if (index % TURN === 0) await nextTurn();
    if (isEmpty(cells)) continue;
    rows++;
    // The header is the spreadsheet's row 1.
    const row = index + 2;
    const read = readRow(row, headers, cells, mapping);
    if ('reason' in read) {
      refused.push({ row, reason: read.reason });
      continue;
    }
    const { client, key } = read;
    const known = byKey.get(key);
    if (!known) {
      byKey.set(key, client);
      continue;
    }
    known.rows.push(row);
    if (!known.phone) known.phone = client.phone;
    if (!known.notes && client.notes) known.notes = client.notes;
    known.billing ??= client.billing;
    for (const address of client.addresses)
      if (!known.addresses.some((a) => sameAddress(a, address))) known.addresses.push(address);
  }
  return {
    source: sourceOf(headers),
    columns: headers.map((header, i) => ({ header, field: mapping[i] ?? null })),
    rows,
    clients: [...byKey.values()],
    refused,
  };
}

/** The same property: street and ZIP compared as the database's unique index does (lower-case). */
const sameAddress = (a: { street: string; zip: string }, b: { street: string; zip: string }) =>
  a.street.toLowerCase() === b.street.toLowerCase() && a.zip.toLowerCase() === b.zip.toLowerCase();
