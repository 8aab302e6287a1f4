import { openDatabase } from '../../src/server/db/client';
import { CuttableProxy } from './cuttable-proxy';
import { freePort } from './server-process';
import { createTestApp } from './test-app';
import { createTestDatabase } from './test-db';

/**
 * An app on a PostgreSQL database of its own, reached through a proxy the test can cut and restore
 * (the database "goes away" while the app runs). `close` ends the app, the proxy and the database.
 */
export async function createProxiedPostgresApp(env: Record<string, string>) {
  const owner = await createTestDatabase('postgres');
  const direct = new URL(owner.url!);
  const proxy = new CuttableProxy(await freePort(), { host: direct.hostname, port: Number(direct.port || 5432) });
  await proxy.open();
  const proxied = new URL(owner.url!);
  proxied.port = String(proxy.port);
  const viaProxy = await openDatabase({ databaseUrl: proxied.toString(), dataDir: '' });
  const t = await createTestApp('postgres', { database: { ...viaProxy, destroy: () => viaProxy.close() }, env });
  return {
    t,
    proxy,
    async close() {
      await t.close();
      await viaProxy.close();
      await proxy.cut();
      await owner.destroy();
    },
  };
}
