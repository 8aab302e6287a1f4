import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { builtServerEntry, freePort, startServerProcess, waitForHealth } from '../../helpers/server-process';
import { FakeStripe } from '../../helpers/fake-stripe';
import { FakeTwilio } from '../../helpers/fake-twilio';
import { E2E_ADMIN } from './constants';

/**
 * Builds the app when needed, then starts it twice like `npm start` would, each with its own DATA_DIR
 * and free port, and a real SMTP server on loopback whose messages land as .eml files for the tests to read.
 */
export default async function globalSetup() {
  const { buildAll, isBuildStale } = await import('../../../scripts/build.mjs');
  if (isBuildStale()) await buildAll({ quiet: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-e2e-'));
  const mailDir = path.join(dataDir, 'received-mail');
  fs.mkdirSync(mailDir);
  let count = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A recipient with a file of its name under received-mail/refused is refused (550), as a mail
    // server refuses a mailbox: the System page's failing relay (support/mail.ts, refuseMailTo).
    onRcptTo(address, _session, callback) {
      if (fs.existsSync(path.join(mailDir, 'refused', address.address)))
        return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // Written whole, then named: a reader never sees half a message (support/mail.ts parses each once).
        const name = path.join(mailDir, `${String(++count).padStart(5, '0')}.eml`);
        fs.writeFileSync(`${name}.partial`, Buffer.concat(chunks));
        fs.renameSync(`${name}.partial`, name);
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));

  // Two servers of the same build, each with its own data: the first for the tests that make data of
  // their own (two at once), the second for the tests that change or count what every test shares (the
  // settings, the dashboard's totals), one at a time, beside them (playwright.config.ts).
  // An in-process fake of Stripe on loopback (decision 035): the servers' Stripe client talks to it.
  const stripe = await new FakeStripe().start();
  process.env.E2E_FAKE_STRIPE_KEY = stripe.secretKey;
  // And of Twilio (decision 045): the servers send texts to it; the tests read them and post its reports.
  const twilio = await new FakeTwilio().start();
  process.env.E2E_FAKE_TWILIO_URL = twilio.url;
  process.env.E2E_FAKE_TWILIO_SID = twilio.accountSid;
  process.env.E2E_FAKE_TWILIO_TOKEN = twilio.authToken;
  // The first server runs on the PostgreSQL server when there is one (TEST_DATABASE_URL, as in CI), in a
  // database of its own: PGlite was a third of that server's busy time, and the browser then meets both
  // databases. The other two, for the tests that change or count what all share, stay on PGlite.
  const postgres = await createPostgresDatabase();
  const [main, shared, sharedDesktop] = await Promise.all([
    // The first takes no automatic backup a minute after start: it copies and packs the whole database
    // while the tests wait on it. The other two keep the daily backup the owner's Your data page describes.
    startApp(path.join(dataDir, 'main'), smtpPort, stripe.url, {
      TEXTS_API_URL: twilio.url,
      BACKUP_EVERY_HOURS: '0',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    }),
    // One for each device's shared-state tests: the two run at once, each alone on its server, instead of
    // the desktop ones waiting for the phone ones and then running with one core idle (a minute and a half).
    startApp(path.join(dataDir, 'shared'), smtpPort, stripe.url, { TEXTS_API_URL: twilio.url }),
    startApp(path.join(dataDir, 'shared-desktop'), smtpPort, stripe.url, { TEXTS_API_URL: twilio.url }),
  ]);
  process.env.E2E_BASE_URL = main.base;
  process.env.E2E_SHARED_BASE_URL = shared.base;
  process.env.E2E_SHARED_DESKTOP_BASE_URL = sharedDesktop.base;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_MAIN_DATABASE = postgres || process.env.E2E_DATABASE_URL ? 'postgres' : 'pglite';

  return async () => {
    for (const { server } of [main, shared, sharedDesktop]) {
      server.child.kill('SIGTERM');
      await server.exited;
      // Errors, and a query that waited on the open transaction it was made in (db/client.ts), are shown.
      if (/"level":50|waits for it to end/.test(server.output())) console.log(server.output());
    }
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await stripe.stop();
    await twilio.stop();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

/** A new, empty database on the PostgreSQL server of TEST_DATABASE_URL (the app migrates it), or none. */
async function createPostgresDatabase() {
  const adminUrl = process.env.E2E_DATABASE_URL ? undefined : process.env.TEST_DATABASE_URL;
  if (!adminUrl) return undefined;
  const name = `hm_e2e_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const withAdmin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await withAdmin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(`drop database if exists ${name} with (force)`),
  };
}

/** The built app, started as `npm start` starts it, on a free port with its own DATA_DIR. */
async function startApp(dataDir: string, smtpPort: number, stripeUrl: string, env: Record<string, string> = {}) {
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServerProcess(
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      OWNER_EMAIL: 'owner@handyman.test',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      RATE_LIMIT_MAX: '1000',
      LOGIN_RATE_LIMIT_MAX: '1000',
      LOGIN_USER_RATE_LIMIT_MAX: '1000',
      STATUS_RATE_LIMIT_MAX: '100000',
      PAYMENTS_API_URL: stripeUrl,
      // The browser tests run at any hour; the quiet hours have tests of their own (api/texts.test.ts).
      TEXTS_QUIET_HOURS: 'off',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ...env,
    },
    builtServerEntry,
  );
  // A first start creates and migrates the database: seconds on an idle machine, more on a busy CI host.
  await waitForHealth(port, server, 120_000);
  return { server, base };
}
