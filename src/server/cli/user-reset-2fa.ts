// npm run user:reset-2fa -- --username NAME
// Turns two-step sign-in off for an account whose phone (and recovery codes) are lost, on the machine
// itself: whoever can run this can already read the database. The trail records it.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { removeTwoStep } from '../auth';
import { recordAudit } from '../audit';
import { runningServer } from '../backups';
import { secureDataDir } from '../lib/data-dir';
import { describeError } from '../lib/safe-error';
import { findUserByUsername, staffName } from '../users';

async function main() {
  const { values } = parseArgs({ options: { username: { type: 'string' } } });
  const username = values.username?.trim();
  if (!username) throw new Error('Give a username: npm run user:reset-2fa -- --username NAME');
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  // The embedded database is one process's at a time.
  const other = config.DATABASE_URL ? null : runningServer(config.DATA_DIR);
  if (other) throw new Error(`The server (process ${other}) is running on ${config.DATA_DIR}: stop it first.`);

  process.umask(0o077);
  if (!config.DATABASE_URL) secureDataDir(config.DATA_DIR);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: `${config.DATA_DIR}/db` });
  try {
    await database.migrate();
    const user = await findUserByUsername(database.db, username);
    if (!user) throw new Error(`No account is named "${username}".`);
    const removed = await database.db.transaction(async (tx) => {
      const done = await removeTwoStep(tx, user.id);
      if (done)
        await recordAudit(tx, {
          userId: user.id,
          actorName: staffName(user),
          ip: 'this machine',
          kind: 'sign-in',
          action: 'Two-step sign-in turned off on the machine (npm run user:reset-2fa)',
          route: 'npm run user:reset-2fa',
          target: user.id,
        });
      return done;
    });
    console.log(
      removed
        ? `Two-step sign-in is off for "${user.username}": they sign in with their password, and can turn it on again under Your account.`
        : `"${user.username}" did not have two-step sign-in: nothing changed.`,
    );
  } finally {
    await database.close();
    if (!config.DATABASE_URL) secureDataDir(config.DATA_DIR);
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Could not reset two-step sign-in: ${error instanceof Error && !('query' in error) ? error.message : describeError(error)}`,
  );
  process.exit(1);
});
