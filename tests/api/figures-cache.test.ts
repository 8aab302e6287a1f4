import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedFigures } from '../../src/server/figures';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db';

describe.each(dbKinds)('the figures cache (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.destroy());

  it('keeps the figures read most recently when many lists are paged through', async () => {
    const computed: string[] = [];
    const read = (key: string) =>
      cachedFigures(database.db, key, async () => {
        computed.push(key);
        return key.length;
      });
    await read('dashboard');
    // Forty other counts (more than the cache holds), the dashboard opened again between them.
    for (let i = 0; i < 40; i++) {
      await read(`job count ${i}`);
      await read('dashboard');
    }
    expect(computed.filter((key) => key === 'dashboard')).toHaveLength(1);
    // The least recently read went first.
    computed.length = 0;
    await read('job count 0');
    await read('job count 39');
    expect(computed).toEqual(['job count 0']);
  });
});
