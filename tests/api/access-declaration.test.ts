import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { createTestDatabase } from '../helpers/test-db';
import { testConfig } from '../helpers/test-app';

describe('route access declarations', () => {
  it('refuses to register an /api route that does not say who may call it', async () => {
    const database = await createTestDatabase('pglite');
    const app = await buildApp({ config: testConfig(), database, logger: false, webRoot: '/nonexistent' });
    expect(() => app.get('/api/forgotten', async () => 'x')).toThrow(
      'Route GET /api/forgotten does not declare config.access',
    );
    expect(() => app.get('/api/declared', { config: { access: 'admin' } }, async () => 'x')).not.toThrow();
    await app.close();
    await database.destroy();
  });
});
