/** One thing an entry carried, as a person reads it: "Contact person › Name", "Dana Whitfield". */
export interface DetailLine {
  label: string;
  value: string;
}

/** "contactPerson" → "Contact person"; "unitPrice" → "Unit price"; "zip" → "Zip". */
export function humanize(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

const NAME_KEYS = ['name', 'description', 'text', 'fullName', 'label', 'title', 'username'];

/** A value in words: yes/no, numbers and text as they are, a list by its items' names or its length. */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'None';
    const names = value.map((item) => {
      if (item === null || typeof item !== 'object') return valueText(item);
      const named = NAME_KEYS.map((k) => (item as Record<string, unknown>)[k]).find((v) => typeof v === 'string' && v);
      return typeof named === 'string' ? named : null;
    });
    if (names.every((n) => n !== null)) return names.join(', ');
    return `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  }
  return `${Object.keys(value).length} fields`;
}

/**
 * What an audit entry carried, as label and value lines, never as JSON: nested fields read
 * "Address › City", lists by their items' names. `changes` (what an edit changed) is shown when present.
 */
export function readableDetails(details: Record<string, unknown>): DetailLine[] {
  const source =
    details.changes && typeof details.changes === 'object' && !Array.isArray(details.changes)
      ? (details.changes as Record<string, unknown>)
      : details;
  const lines: DetailLine[] = [];
  const walk = (value: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [key, v] of Object.entries(value)) {
      const label = prefix ? `${prefix} › ${humanize(key)}` : humanize(key);
      if (v && typeof v === 'object' && !Array.isArray(v) && depth < 2)
        walk(v as Record<string, unknown>, label, depth + 1);
      else lines.push({ label, value: valueText(v) });
    }
  };
  walk(source, '', 0);
  return lines;
}
