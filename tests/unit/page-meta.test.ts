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

describe("the staff pages' modules", () => {
  it('are the modules the router loads for them, every one of them', async () => {
    const fs = await import('node:fs');
    const { routeMeta } = await import('#shared/page-meta');
    const router = fs.readFileSync(new URL('../../src/web/app/router.tsx', import.meta.url), 'utf8');
    const staffArea = router.slice(router.indexOf('path: paths.admin.root'));
    // Every module the router imports for a staff page (not the layout, not the 404), as page-meta names it.
    const imported = new Set(
      [...staffArea.matchAll(/import\('(\.\.?\/[^']+)'\)/g)]
        .map(([, spec]) => new URL(`${spec}.tsx`, new URL('../../src/web/app/', import.meta.url)).pathname)
        .filter((file) => !/staff-layout|status-pages/.test(file))
        .map((file) => file.slice(file.indexOf('/src/web/') + '/src/web/'.length)),
    );
    const named = new Set(
      routeMeta.filter(([pattern]) => /^\/(admin|employee)/.test(pattern)).map(([, meta]) => meta.module),
    );
    named.delete(undefined);
    expect([...named].sort()).toEqual([...imported].sort());
    for (const [pattern, meta] of routeMeta.filter(([p]) => /^\/(admin|employee)/.test(p)))
      expect(meta.layout, pattern).toBe('app/layouts/staff-layout.tsx');
  });

  it('are found for a path, the more particular pattern first', async () => {
    const { metaForPath } = await import('#shared/page-meta');
    expect(metaForPath('/admin/quote-requests/new')?.module).toBe('features/quote-requests/pages/new-request-page.tsx');
    expect(metaForPath('/admin/quote-requests/abc123')?.module).toBe('app/pages/quote-request-page.tsx');
    expect(metaForPath('/admin/settings')?.module).toBe('features/settings/pages/settings-page.tsx');
    expect(metaForPath('/admin')?.module).toBe('features/dashboard/pages/dashboard-page.tsx');
    expect(metaForPath('/employee/jobs/j1')).toMatchObject({ module: 'app/pages/crew-job-page.tsx', crewApp: true });
    // A path no page serves is the back office's 404: the frame only.
    expect(metaForPath('/admin/nothing-here')).toMatchObject({ layout: 'app/layouts/staff-layout.tsx' });
    expect(metaForPath('/admin/nothing-here')?.module).toBeUndefined();
  });
});
