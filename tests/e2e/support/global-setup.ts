import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { builtServerEntry, freePort, startServerProcess, waitForHealth } from '../../helpers/server-process';
import { E2E_ADMIN } from './constants';

/**
 * Builds the app when needed, then starts it like `npm start` would: its own DATA_DIR, a free port,
 * and a real SMTP server on loopback whose messages land as .eml files for the tests to read.
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
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        fs.writeFileSync(path.join(mailDir, `${String(++count).padStart(5, '0')}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));

  const port = await freePort();
  const server = startServerProcess(
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      OWNER_EMAIL: 'owner@handyman.test',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      MAIL_POLL_MS: '100',
      RATE_LIMIT_MAX: '1000',
      LOGIN_RATE_LIMIT_MAX: '1000',
      LOGIN_USER_RATE_LIMIT_MAX: '1000',
      STATUS_RATE_LIMIT_MAX: '100000',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
    },
    builtServerEntry,
  );
  // A first start creates and migrates the database: seconds on an idle machine, more on a busy CI host.
  await waitForHealth(port, server, 120_000);
  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_DATA_DIR = dataDir;

  return async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    // Errors, and a query that waited on the open transaction it was made in (db/client.ts), are shown.
    if (/"level":50|waits for it to end/.test(server.output())) console.log(server.output());
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
