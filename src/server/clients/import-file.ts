import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import {
  CLIENT_IMPORT_MAX_ROWS,
  IMPORT_FIELDS,
  IMPORT_FIELD_LABELS,
  type ImportField,
} from '#shared/schemas/client-import';
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
    'billingstreet1',
    'billingstreet',
    'billingaddress',
  ],
  street2: ['street2', 'address2', 'addressline2', 'unit', 'servicestreet2', 'propertystreet2', 'billingstreet2'],
  city: ['city', 'town', 'servicecity', 'propertycity', 'billingcity'],
  state: ['state', 'province', 'region', 'stateprovince', 'servicestate', 'propertystate', 'billingstate'],
  zip: [
    'zip',
    'zipcode',
    'postalcode',
    'postcode',
    'servicezip',
    'servicezipcode',
    'servicepostalcode',
    'propertyzipcode',
    'billingzip',
    'billingzipcode',
    'billingpostalcode',
  ],
  notes: ['notes', 'note', 'comments', 'clientnotes', 'customernotes', 'description'],
};

const normalize = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Each header's field (null: not imported); a field takes the best-ranked header that names it. */
export function mapColumns(headers: string[]): (ImportField | null)[] {
  const keys = headers.map(normalize);
  const mapping: (ImportField | null)[] = headers.map(() => null);
  for (const field of IMPORT_FIELDS) {
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
  if (keys.has('emails') || keys.has('mainphones') || keys.has('servicestreet1') || keys.has('billingstreet1'))
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
 * What a spreadsheet skips before it reads a cell's first character: spaces, tabs, line breaks and
 * other control or invisible characters (a quoted " =cmd", "\t=cmd" or "\r=cmd" still runs).
 */
const LEADING_BLANKS = /^[\s\p{Cc}\p{Cf}\p{Z}]+/u;

/**
 * A cell a spreadsheet would run: "=…" or "@…" (or their full-width forms), or "+"/"-" followed by
 * more than a phone number or a number is made of ("+1 (916) 555-0142" and "-5" are data; "-2+3"
 * and "+SUM(A1)" are formulas), whatever blanks come first.
 */
export function isFormula(cell: string): boolean {
  const start = cell.replace(LEADING_BLANKS, '');
  return /^[=@\uff1d\uff20]/.test(start) || (/^[+\-\uff0b\uff0d]/.test(start) && !/^[+-][\d\s().-]*$/.test(start));
}

export interface ImportedClient {
  /** The rows (1 = the first under the header) it came from. */
  rows: number[];
  name: string;
  email: string;
  phone: string;
  notes: string;
  addresses: { street: string; city: string; state: string; zip: string }[];
}

export interface ParsedImport {
  source: string;
  columns: { header: string; field: ImportField | null }[];
  rows: number;
  clients: ImportedClient[];
  refused: { row: number; reason: string }[];
}

const firstOf = (value: string) => value.split(/[,;/\n]/)[0]!.trim();

/** Rows read or checked between two turns of the event loop: a 20,000-row file never holds it for long. */
const TURN = 500;

/** The file's records, read a slice at a time so that other requests are answered meanwhile. */
async function readRecords(text: string): Promise<string[][]> {
  const parser = parse({
    bom: true,
    delimiter: delimiterOf(text),
    relax_column_count: true,
    skip_empty_lines: true,
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

/**
 * Reads a clients CSV: decodes it, maps its columns by header, checks each row with the same rules
 * as a request's contact and address, and merges rows that share an e-mail (case-insensitive).
 * A file that cannot be read, or carries a spreadsheet formula, throws ImportFileError.
 */
export async function parseClientCsv(bytes: Buffer): Promise<ParsedImport> {
  const text = decode(bytes);
  const records = await readRecords(text);
  const [headers, ...data] = records;
  if (!headers || data.length === 0) throw new ImportFileError('The file has no rows of clients under its header row.');
  if (data.length > CLIENT_IMPORT_MAX_ROWS) {
    throw new ImportFileError(
      `The file has more than ${CLIENT_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows: split it and import each part.`,
    );
  }
  const mapping = mapColumns(headers);
  const has = (field: ImportField) => mapping.includes(field);
  if (!has('email')) {
    throw new ImportFileError('No column of this file holds e-mail addresses: name one "Email" (see the template).');
  }
  if (!has('name') && !has('firstName') && !has('lastName') && !has('company')) {
    throw new ImportFileError('No column of this file holds names: name one "Name", or "First name" and "Last name".');
  }
  for (const [index, cells] of data.entries()) {
    if (index % TURN === 0) await nextTurn();
    cells.forEach((cell, column) => {
      if (isFormula(cell)) {
        throw new ImportFileError(
          `Row ${index + 1}, column "${headers[column] ?? column + 1}" starts with "${cell.replace(LEADING_BLANKS, '')[0]}": a spreadsheet formula. Nothing was imported; remove formulas from the file and import it again.`,
        );
      }
    });
  }

  const byEmail = new Map<string, ImportedClient>();
  const refused: ParsedImport['refused'] = [];
  for (const [index, cells] of data.entries()) {
    if (index % TURN === 0) await nextTurn();
    const row = index + 1;
    const value: Partial<Record<ImportField, string>> = {};
    mapping.forEach((field, column) => {
      if (field && cells[column]) value[field] = cells[column];
    });
    const name = value.name || [value.firstName, value.lastName].filter(Boolean).join(' ') || value.company || '';
    const contact = contactPersonInput.safeParse({
      name,
      email: firstOf(value.email ?? ''),
      phone: firstOf(value.phone ?? ''),
    });
    if (!contact.success) {
      const issue = contact.error.issues[0]!;
      const field = String(issue.path[0]);
      const label = field === 'name' ? 'Name' : field === 'email' ? 'E-mail' : 'Phone';
      const missing =
        field === 'name' && !name
          ? 'Name is missing'
          : field === 'email' && !value.email
            ? 'E-mail is missing'
            : `${label}: ${issue.message}`;
      refused.push({ row, reason: missing });
      continue;
    }
    const parts = [value.street, value.city, value.state, value.zip];
    let address: ImportedClient['addresses'][number] | null = null;
    if (parts.some(Boolean)) {
      const parsed = addressInput.safeParse({
        street: [value.street, value.street2].filter(Boolean).join(', '),
        city: value.city ?? '',
        state: value.state ?? '',
        zip: value.zip ?? '',
      });
      if (!parsed.success) {
        const missing = (['street', 'city', 'state', 'zip'] as const).filter(
          (f) => !(f === 'street' ? value.street : value[f]),
        );
        refused.push({
          row,
          reason: missing.length
            ? `The address is incomplete: ${missing.map((f) => IMPORT_FIELD_LABELS[f]).join(', ')} missing`
            : `Address: ${parsed.error.issues[0]!.message}`,
        });
        continue;
      }
      address = parsed.data;
    }
    if ((value.notes ?? '').length > 5000) {
      refused.push({ row, reason: 'Notes: must be at most 5000 characters' });
      continue;
    }
    const key = contact.data.email.toLowerCase();
    const known = byEmail.get(key);
    if (known) {
      known.rows.push(row);
      if (!known.phone) known.phone = contact.data.phone;
      if (!known.notes && value.notes) known.notes = value.notes;
      if (address && !known.addresses.some((a) => sameAddress(a, address))) known.addresses.push(address);
      continue;
    }
    byEmail.set(key, {
      rows: [row],
      name: contact.data.name,
      email: contact.data.email,
      phone: contact.data.phone,
      notes: value.notes ?? '',
      addresses: address ? [address] : [],
    });
  }
  return {
    source: sourceOf(headers),
    columns: headers.map((header, i) => ({ header, field: mapping[i] ?? null })),
    rows: data.length,
    clients: [...byEmail.values()],
    refused,
  };
}

/** The same property: street and ZIP compared as the database's unique index does (lower-case). */
const sameAddress = (a: { street: string; zip: string }, b: { street: string; zip: string }) =>
  a.street.toLowerCase() === b.street.toLowerCase() && a.zip.toLowerCase() === b.zip.toLowerCase();
