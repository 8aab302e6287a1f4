// npm run user:add -- --username NAME --role admin|employee [--full-name "…"] [--email …]
// The password is asked on the terminal (not echoed), or read from standard input when piped.
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { USER_ROLES, type UserRole } from '#shared/constants';
import { TEAM_ROLE_LABELS, TEAM_ROLES, teamRoleOf, type TeamRole } from '#shared/roles';
import { hashPassword } from '../lib/passwords';
import { passwordProblem } from '../lib/password-policy';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { secureDataDir } from '../lib/data-dir';
import { describeError } from '../lib/safe-error';
import { findUserByUsername, insertUser } from '../users';

const MIN_PASSWORD = 8;

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      process.stdout.write(question);
      // Hide what is typed: print nothing for each keystroke.
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
      rl.question('', (answer) => {
        process.stdout.write('\n');
        resolve(answer);
      });
    });
  const first = await ask('Password: ');
  const second = await ask('Repeat password: ');
  rl.close();
  if (first !== second) throw new Error('The passwords do not match.');
  return first;
}

async function main() {
  const { values } = parseArgs({
    options: {
      username: { type: 'string' },
      role: { type: 'string', default: 'crew' },
      'full-name': { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
    },
  });
  const username = values.username?.trim();
  if (!username) throw new Error(`Give a username: npm run user:add -- --username NAME --role ${TEAM_ROLES.join('|')}`);
  // The spec's two roles still work: admin is an Owner, employee is Crew.
  const role = values.role ?? 'crew';
  const teamRole = USER_ROLES.includes(role as UserRole) ? teamRoleOf(role as UserRole) : (role as TeamRole);
  if (!TEAM_ROLES.includes(teamRole)) throw new Error(`--role must be one of: ${TEAM_ROLES.join(', ')}`);

  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const password = await readPassword();
  if (password.length < MIN_PASSWORD) throw new Error(`The password must be at least ${MIN_PASSWORD} characters.`);
  const weak = passwordProblem(password, [username, ...(values['full-name'] ?? '').split(/\s+/), values.email ?? '']);
  if (weak) throw new Error(`${weak}.`);

  process.umask(0o077);
  if (!config.DATABASE_URL) secureDataDir(config.DATA_DIR);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: `${config.DATA_DIR}/db` });
  try {
    await database.migrate();
    if (await findUserByUsername(database.db, username))
      throw new Error(`The username "${username}" is already taken.`);
    await insertUser(database.db, {
      username,
      passwordHash: await hashPassword(password),
      teamRole,
      fullName: values['full-name'] ?? '',
      email: values.email ?? '',
      phone: values.phone ?? '',
    });
    console.log(`Added ${TEAM_ROLE_LABELS[teamRole]} "${username}".`);
  } finally {
    await database.close();
    if (!config.DATABASE_URL) secureDataDir(config.DATA_DIR);
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Could not add the user: ${error instanceof Error && !('query' in error) ? error.message : describeError(error)}`,
  );
  process.exit(1);
});
