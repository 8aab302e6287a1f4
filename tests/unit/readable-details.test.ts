import { describe, expect, it } from 'vitest';
import { readableDetails } from '../../src/web/features/audit/lib/readable-details';

describe('an audit entry’s details as words (issue 28, item 12)', () => {
  it('reads nested fields, lists, yes/no and empty values as label and value, never JSON', () => {
    const lines = readableDetails({
      contactPerson: { name: 'Dana Whitfield', email: '' },
      materials: [{ name: 'Gate hinge kit', unitPrice: 34.99 }, { name: 'Paint' }],
      workers: [{ _id: 'a' }, { _id: 'b' }],
      taxable: false,
      password: '(hidden)',
      query: { mark: '007' },
    });
    expect(lines).toEqual([
      { label: 'Contact person › Name', value: 'Dana Whitfield' },
      { label: 'Contact person › Email', value: '—' },
      { label: 'Materials', value: 'Gate hinge kit, Paint' },
      { label: 'Workers', value: '2 items' },
      { label: 'Taxable', value: 'No' },
      { label: 'Password', value: '(hidden)' },
      { label: 'Query › Mark', value: '007' },
    ]);
    expect(JSON.stringify(lines.map((l) => l.value))).not.toMatch(/[{}]/);
  });

  it('shows what an edit changed when the entry says so', () => {
    expect(readableDetails({ changes: { status: 'Paid' }, other: 1 })).toEqual([{ label: 'Status', value: 'Paid' }]);
  });
});
