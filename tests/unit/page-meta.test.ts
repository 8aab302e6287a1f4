import { describe, expect, it } from 'vitest';
import { metaForPath } from '#shared/page-meta';

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
    // A client's invoice link: a fresh load must be a page (200), not the server's 404.
    expect(metaForPath('/invoice/abc')?.title).toBe('Your Invoice');
    expect(metaForPath('/invoice/abc')?.withData).toBe(true);
  });

  it('knows a path no route serves', () => {
    expect(metaForPath('/no/such/page')).toBeUndefined();
    expect(metaForPath('/get-a-quote/nope')).toBeUndefined();
    expect(metaForPath('/administrator')).toBeUndefined();
  });
});

describe('preloaded page modules', () => {
  it('name files that exist, so the server can find their chunks in the build manifest', async () => {
    const fs = await import('node:fs');
    const { routeMeta } = await import('#shared/page-meta');
    const modules = routeMeta.map(([, meta]) => meta.module).filter(Boolean);
    expect(modules.length).toBeGreaterThanOrEqual(3);
    for (const module of modules)
      expect(fs.existsSync(new URL(`../../src/web/${module}`, import.meta.url)), module).toBe(true);
  });
});
