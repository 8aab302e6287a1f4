import fs from 'node:fs';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { NewerDatabaseError } from './db/versions';
import { ensureFirstAdmin } from './users';
import { startReconciler } from './payments';
import { startSystemAlerts } from './system';
import { startTextFailureNotices } from './texts';
import { startPlanVisits } from './visits';
import { describeError } from './lib/safe-error';
import { buildMaintenanceApp, type MaintenanceState } from './maintenance';
import { secureDataDir } from './lib/data-dir';
import {
  markServerRunning,
  runningServer,
  snapshotBeforeUpgrade,
  SnapshotError,
  startAutomaticBackups,
} from './backups';

function fail(message: string): never {
  console.error(`\nThe server could not start.\n${message}\n`);
  process.exit(1);
}

function readConfig(): Config {
  // A .env file beside package.json fills in what the environment does not set.
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/** How the start went: the database migrated, or an upgrade that failed (served in maintenance mode). */
type Opened = { database: Database; maintenance: null } | { database: Database; maintenance: MaintenanceState };

async function openAndMigrate(config: Config): Promise<Opened> {
  let database: Database | undefined;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: `${config.DATA_DIR}/db` });
    const snapshot = await snapshotBeforeUpgrade(database, {
      dataDir: config.DATA_DIR,
      databaseUrl: config.DATABASE_URL,
      required: config.UPGRADE_SNAPSHOT_REQUIRED,
    });
    if (snapshot && 'skipped' in snapshot)
      console.warn(
        `No snapshot was taken before this upgrade (${snapshot.skipped}): take a backup of the database before the next one (set UPGRADE_SNAPSHOT_REQUIRED=true to refuse an upgrade without one).`,
      );
    else if (snapshot)
      console.log(`Before the upgrade the database was saved to ${snapshot.file} (${snapshot.record}).`);
    try {
      await database.migrate(config.MIGRATIONS_DIR);
    } catch (error) {
      if (!snapshot || error instanceof NewerDatabaseError) throw error;
      // An upgrade's migrations run in one transaction: one that fails leaves the database as it was.
      // The server serves maintenance mode instead of stopping (decision 034).
      const why = describeError(error);
      console.error(
        `\nThe upgrade of the database failed: ${why}\n` +
          'Nothing was changed: its migrations run in one transaction, undone as a whole. The site shows a ' +
          '"back soon" page; an admin signs in at /maintenance for the error and a backup. Start the version ' +
          'that ran before, or report this error (`npm run upgrade:check` shows the same without starting).\n',
      );
      return {
        database,
        maintenance: { error: why, snapshot: 'file' in snapshot ? snapshot : null },
      };
    }
    return { database, maintenance: null };
  } catch (error) {
    await database?.close().catch(() => {});
    if (error instanceof NewerDatabaseError || error instanceof SnapshotError) fail(error.message);
    const where = config.DATABASE_URL ? 'DATABASE_URL' : `the embedded database in ${config.DATA_DIR}/db`;
    fail(`Cannot open ${where}: ${describeError(error)}`);
  }
}

/** Maintenance mode: the "back soon" page and the admin's page until the next start (decision 034). */
async function serveMaintenance(config: Config, database: Database, state: MaintenanceState) {
  const app = await buildMaintenanceApp({ config, database, state });
  let clearPid = () => {};
  const stop = async () => {
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    clearPid();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await database.close().catch(() => {});
    fail(describeError(error));
  }
  // The commands (npm run rollback / restore) refuse to touch DATA_DIR while this process runs.
  clearPid = markServerRunning(config.DATA_DIR);
  app.log.warn(`Maintenance mode: the upgrade failed. Admins sign in at ${config.PUBLIC_URL}/maintenance`);
}

function printCredentials(username: string, password: string) {
  const lines = [
    'First admin account created. Sign in at /login with:',
    `  username: ${username}`,
    `  password: ${password}`,
    'This password is shown only this once: keep it somewhere safe.',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const bar = '─'.repeat(width + 2);
  console.log(`\n┌${bar}┐\n${lines.map((l) => `│ ${l.padEnd(width)} │`).join('\n')}\n└${bar}┘\n`);
}

async function main() {
  // Everything the server writes (database, keys, mail files) is for its own account only.
  process.umask(0o077);
  const config = readConfig();
  const dataDirWarnings = secureDataDir(config.DATA_DIR);
  const other = runningServer(config.DATA_DIR);
  if (other && !config.DATABASE_URL) {
    fail(`Another server (process ${other}) is running on ${config.DATA_DIR}: stop it first, or set another DATA_DIR.`);
  }
  const opened = await openAndMigrate(config);
  if (opened.maintenance) return serveMaintenance(config, opened.database, opened.maintenance);
  const { database } = opened;
  // The embedded database sets its own files' modes when it creates them: close them up again.
  if (database.kind === 'pglite') secureDataDir(config.DATA_DIR);
  const admin = await ensureFirstAdmin(database.db, config.ADMIN_USERNAME, config.ADMIN_PASSWORD);
  const app = await buildApp({ config, database });
  for (const warning of dataDirWarnings) app.log.warn(warning);
  if (admin.created) {
    if (admin.generatedPassword) printCredentials(admin.username!, admin.generatedPassword);
    else app.log.info({ username: admin.username }, 'first admin account created from ADMIN_USERNAME');
  }
  if (admin.promoted)
    app.log.warn(
      { username: admin.username },
      'no admin account was left: ADMIN_USERNAME names this existing account, now an admin',
    );

  let stopping = false;
  let stopBackups = () => {};
  let stopReconciler = () => {};
  let stopAlerts = () => {};
  let stopTextNotices = () => {};
  let stopPlans = () => {};
  let clearPid = () => {};
  const stop = async (signal: string) => {
    if (stopping) {
      app.log.warn(`${signal} again: exiting at once`);
      process.exit(1);
    }
    stopping = true;
    stopBackups();
    stopReconciler();
    stopAlerts();
    stopTextNotices();
    stopPlans();
    app.log.info(`${signal}: finishing requests in flight, then stopping`);
    try {
      await app.close();
      await database.close();
      clearPid();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await database.close().catch(() => {});
    const code = (error as { code?: string }).code;
    fail(
      code === 'EADDRINUSE' ? `Port ${config.PORT} is already in use: set PORT to a free port.` : describeError(error),
    );
  }
  app.mail.start();
  app.webhooks.start();
  app.texts.start();
  if (app.metrics) {
    try {
      const address = await app.metrics.listen();
      app.log.info(`Metrics at http://${address.address}:${address.port}/metrics`);
    } catch (error) {
      app.log.error({ err: describeError(error) }, `the metrics port ${config.METRICS_PORT} could not be opened`);
    }
  }
  // The commands (npm run backup / restore) refuse to touch DATA_DIR while this file names a live process.
  clearPid = markServerRunning(config.DATA_DIR);
  stopBackups = startAutomaticBackups(app);
  // Checkouts not yet settled are asked of the provider: a payment is never lost behind a home router.
  stopReconciler = startReconciler(app);
  // The System page's red lines reach the owner by e-mail, once a day at most (decision 039).
  stopAlerts = startSystemAlerts(app);
  // Texts that did not reach clients: one notice a day to the owner, not one per text (issue 30).
  stopTextNotices = startTextFailureNotices(app);
  // Repeating visits are made ahead, up to each plan's horizon (decision 047).
  stopPlans = startPlanVisits(app);
  app.log.info(`Mail goes to ${app.mail.transportName}. Database: ${database.kind}. Open ${config.PUBLIC_URL}`);
}

// A crash prints what describeError keeps, never Node's dump of the error's fields (query values).
process.on('uncaughtException', (error) => fail(describeError(error)));
process.on('unhandledRejection', (error) => fail(describeError(error)));
// Whatever stops the start-up is printed without the values of a failed query (no rows, no hashes).
await main().catch((error: unknown) => fail(describeError(error)));
