import type { AuditKind } from '#shared/schemas/audit';

const KIND_BY_SEGMENT: Record<string, AuditKind> = {
  users: 'users',
  clients: 'clients',
  quoterequest: 'requests',
  quotes: 'quotes',
  jobs: 'jobs',
  my: 'crew',
  visits: 'visits',
  invoices: 'invoices',
  settings: 'settings',
  'price-book': 'settings',
  mail: 'mail',
  backups: 'data',
  export: 'data',
};

/**
 * A refused call (403) of a route that records nothing when it succeeds (a read the role may not make):
 * its kind by its address, and the address as its words. The routes that record say their own words
 * in `config.audit`.
 */
export function describeRefusal(method: string, url: string): { kind: AuditKind; action: string } {
  const segment = url.split('/')[2] ?? '';
  return { kind: KIND_BY_SEGMENT[segment] ?? 'data', action: `${method} ${url}` };
}

const HIDDEN = /pass(word)?|secret|token|signature|^code$/i;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A lone UTF-16 surrogate cannot be stored as text (JSON in the database refuses it): shown as U+FFFD. */
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');
const LONGEST = 200;

/**
 * What was sent, fit for the trail: passwords, tokens and signatures hidden; long values (a photo's
 * data URL) replaced by their length; at most 60 keys per object and 50 items per list, 4 levels.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > LONGEST ? `(${value.length} characters)` : wellFormed(value);
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 4) return '(…)';
  if (Array.isArray(value)) {
    const items = value.slice(0, 50).map((v) => redact(v, depth + 1));
    return value.length > 50 ? [...items, `(${value.length - 50} more)`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value).slice(0, 60)) {
    out[wellFormed(key)] = HIDDEN.test(key) ? '(hidden)' : redact(v, depth + 1);
  }
  return out;
}
