import { teamRoleOf, type TeamRole } from '#shared/roles';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App, type AppOptions } from '../../src/server/app';
import { hashPassword } from '../../src/server/lib/passwords';
import { loadConfig, type Config } from '../../src/server/config';
import { smtpTransport, type MailTransport } from '../../src/server/mail/transports';
import { insertUser, type UserRow } from '../../src/server/users/repository';
import type { UserRole } from '#shared/constants';
import { TestSmtpServer } from './smtp';
import { createTestDatabase, type DbKind, type TestDatabase } from './test-db';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export interface TestApp {
  app: App;
  config: Config;
  database: TestDatabase;
  dataDir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  database?: TestDatabase;
  mailTransport?: MailTransport;
  webRoot?: string;
  /** The app's logger; by default none. */
  logger?: AppOptions['logger'];
}

export function testConfig(
  env: Record<string, string> = {},
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-test-')),
): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    PUBLIC_URL: 'http://handyman.test',
    OWNER_EMAIL: 'owner@handyman.test',
    MAIL_RETRY_BASE_MS: '50',
    MAIL_RETRY_MAX_MS: '400',
    RATE_LIMIT_MAX: '1000',
    LOGIN_RATE_LIMIT_MAX: '1000',
    LOGIN_USER_RATE_LIMIT_MAX: '1000',
    STATUS_RATE_LIMIT_MAX: '100000',
    // Tests run at any hour: the quiet hours are tested with a clock of their own (texts.test.ts).
    TEXTS_QUIET_HOURS: 'off',
    ...env,
  });
}

/** The real app on a database of its own, for `app.inject`. */
export async function createTestApp(kind: DbKind, options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(options.env);
  const database = options.database ?? (await createTestDatabase(kind));
  const app = await buildApp({
    config,
    database,
    logger: options.logger ?? false,
    webRoot: options.webRoot ?? path.join(config.DATA_DIR, 'no-web-build'),
    ...(options.mailTransport ? { mailTransport: options.mailTransport } : {}),
  });
  await app.ready();
  return {
    app,
    config,
    database,
    dataDir: config.DATA_DIR,
    async close() {
      await app.close();
      if (!options.database) await database.destroy();
      fs.rmSync(config.DATA_DIR, { recursive: true, force: true });
    },
  };
}

let counter = 0;

/**
 * Hashes by password, made once per worker: a hash is an argon2 run (about 80 ms of CPU), and most
 * users of a test share the default password. Each user still gets a real argon2 hash, and signs in
 * through the API, which verifies it.
 */
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

/**
 * Creates a user straight in the database and signs in through the API: a team role, or the spec's
 * role (admin is an Owner, employee is Crew, as the migration made them).
 */
export async function createUserAndSignIn(
  t: TestApp,
  role: UserRole | TeamRole,
  fields: { username?: string; password?: string } = {},
): Promise<{ user: UserRow; token: string; password: string }> {
  const password = fields.password ?? 'correct horse battery';
  const username = fields.username ?? `${role}${++counter}${Date.now().toString(36)}`;
  const user = await insertUser(t.database.db, {
    username,
    passwordHash: await hashOnce(password),
    teamRole: role === 'admin' || role === 'employee' ? teamRoleOf(role) : role,
    fullName: `${role} ${counter}`,
  });
  const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return { user, token: res.json<{ token: string }>().token, password };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The app with its mail relay running against a real SMTP server on loopback. */
export async function createMailingTestApp(
  kind: DbKind,
  env: Record<string, string> = {},
): Promise<TestApp & { smtp: TestSmtpServer }> {
  const smtp = await new TestSmtpServer().start();
  const t = await createTestApp(kind, {
    env,
    mailTransport: smtpTransport(smtp.url, 'Handyman <no-reply@handyman.test>'),
  });
  t.app.mail.start();
  return {
    ...t,
    smtp,
    async close() {
      await t.close();
      await smtp.stop();
    },
  };
}

/** The app with its mail relay and an admin signed in: where most suites about a client's journey start. */
export async function createMailingTestAppWithAdmin(kind: DbKind) {
  const mailing = await createMailingTestApp(kind);
  return { ...mailing, admin: bearer((await createUserAndSignIn(mailing, 'admin')).token) };
}

/** The office (an admin) and one crew member, signed in, on an app that mails through a test SMTP server. */
export async function createMailingTestAppWithCrew(kind: DbKind) {
  const office = await createMailingTestAppWithAdmin(kind);
  const worker = await createUserAndSignIn(office, 'employee');
  return { ...office, crew: { id: worker.user.id, auth: bearer(worker.token) } };
}
