import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { createTestDatabase } from '../helpers/test-db';
import { testConfig } from '../helpers/test-app';

describe('route access and audit declarations', () => {
  it('refuses to register an /api route that does not say who may call it', async () => {
    const database = await createTestDatabase('pglite');
    const app = await buildApp({ config: testConfig(), database, logger: false, webRoot: '/nonexistent' });
    expect(() => app.get('/api/forgotten', async () => 'x')).toThrow(
      'Route GET /api/forgotten does not declare config.access',
    );
    expect(() => app.get('/api/declared', { config: { access: 'office' } }, async () => 'x')).not.toThrow();
    // Issue 26.2: a staff write says, beside its access, what the audit trail records of it.
    expect(() => app.post('/api/unsaid', { config: { access: 'office' } }, async () => 'x')).toThrow(
      'Route POST /api/unsaid does not say what the audit trail records (config.audit)',
    );
    expect(() =>
      app.post(
        '/api/said',
        { config: { access: 'office', audit: { kind: 'data', action: 'Did it' } } },
        async () => 'x',
      ),
    ).not.toThrow();
    expect(() =>
      app.post('/api/preview', { config: { access: 'office', audit: false } }, async () => 'x'),
    ).not.toThrow();
    expect(() => app.post('/api/public-form', { config: { access: 'public' } }, async () => 'x')).not.toThrow();
    await app.close();
    await database.destroy();
  });
});
