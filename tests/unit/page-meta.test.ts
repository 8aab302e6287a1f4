import { describe, expect, it } from 'vitest';
import { metaForPath } from '../../src/shared/page-meta';

describe('page meta by path', () => {
  it('matches the routes of the client, regardless of case', () => {
    expect(metaForPath('/')?.index).toBe(true);
    expect(metaForPath('/get-a-quote')?.title).toBe('Get a Quote');
    expect(metaForPath('/Get-A-Quote/')?.title).toBe('Get a Quote');
    expect(metaForPath('/Login')?.title).toBe('Admin Sign In');
    expect(metaForPath('/quote-request-status/abc123')?.index).toBe(false);
    expect(metaForPath('/admin')?.title).toBe('Staff');
    expect(metaForPath('/admin/jobs/123')?.title).toBe('Staff');
    expect(metaForPath('/quote/abc')?.title).toBe('Your Quote');
  });

  it('knows a path no route serves', () => {
    expect(metaForPath('/no/such/page')).toBeUndefined();
    expect(metaForPath('/get-a-quote/nope')).toBeUndefined();
    expect(metaForPath('/administrator')).toBeUndefined();
  });
});
