import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WEAK_PASSWORD } from '../../src/server/lib/password-policy';
import { verifyPassword } from '../../src/server/lib/passwords';
import { openDatabase } from '../../src/server/db/client';
import { findUserByUsername } from '../../src/server/users/repository';
import { projectRoot } from '../../src/server/paths';
import { entryArgs } from '../helpers/server-bundle';
import { eq } from 'drizzle-orm';
import { auditLog, twoStepSecrets } from '../../src/server/db/schema';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/**
 * Each command here is its own process that opens the embedded database (PGlite's WASM and the
 * migrations' check): 1–2 s alone, but up to several times that on a slow 2-core host running the
 * other test files beside it, where Node 24's CI pass once took over 30 s for one test of four such
 * processes. The checks are the same; only the time they may take is the host's.
 */
const PROCESSES_TIMEOUT = 120_000;

function userAdd(args: string[], input: string) {
  return spawnSync(process.execPath, [...entryArgs('src/server/cli/user-add.ts'), ...args], {
    cwd: projectRoot,
    input,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
}

describe('npm run user:add', { timeout: PROCESSES_TIMEOUT }, () => {
  it('adds a user with the password read from stdin, and refuses a duplicate', async () => {
    const ok = userAdd(['--username', 'Maria', '--role', 'employee', '--full-name', 'Maria Lopez'], 'tile-and-grout\n');
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('Added Crew "Maria".');
    const dup = userAdd(['--username', 'maria', '--role', 'admin'], 'another-password\n');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toContain('already taken');

    const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    const user = await findUserByUsername(database.db, 'maria');
    await database.close();
    expect(user).toMatchObject({ username: 'Maria', role: 'employee', teamRole: 'crew', fullName: 'Maria Lopez' });
    expect(await verifyPassword(user!.passwordHash, 'tile-and-grout')).toBe(true);
  });

  it('refuses a short password and an unknown role', () => {
    expect(userAdd(['--username', 'x', '--role', 'employee'], 'short\n').stderr).toContain('at least 8 characters');
    expect(userAdd(['--username', 'x', '--role', 'boss'], 'long-enough\n').stderr).toContain(
      '--role must be one of: owner, office, crew_lead, crew',
    );
  });

  it('refuses a common or guessable password (issue 11)', () => {
    for (const weak of ['12345678', 'password', '        ', 'samsmith1']) {
      const res = userAdd(['--username', 'samsmith', '--role', 'admin', '--full-name', 'Sam Smith'], `${weak}\n`);
      expect(res.status, weak).toBe(1);
      expect(res.stderr, weak).toContain(WEAK_PASSWORD);
    }
  });
});

function reset2fa(username: string) {
  return spawnSync(process.execPath, [...entryArgs('src/server/cli/user-reset-2fa.ts'), '--username', username], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
}

describe('npm run user:reset-2fa', { timeout: PROCESSES_TIMEOUT }, () => {
  it('turns off two-step sign-in for a locked-out person, recorded in the trail, once', async () => {
    const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    const user = await findUserByUsername(database.db, 'maria');
    await database.db
      .insert(twoStepSecrets)
      .values({ userId: user!.id, secretSealed: 'sealed', confirmedAt: new Date() });
    await database.close();

    const done = reset2fa('Maria');
    expect(done.stderr).toBe('');
    expect(done.stdout).toContain('Two-step sign-in is off for "Maria"');
    expect(reset2fa('Maria').stdout).toContain('did not have two-step sign-in: nothing changed');

    const after = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    try {
      expect(await after.db.select().from(twoStepSecrets)).toEqual([]);
      const trail = await after.db.select().from(auditLog).where(eq(auditLog.userId, user!.id));
      expect(trail.map((e) => e.action)).toEqual([
        'Two-step sign-in turned off on the machine (npm run user:reset-2fa)',
      ]);
    } finally {
      await after.close();
    }
  });

  it('refuses an unknown name', () => {
    const unknown = reset2fa('nobody');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No account is named "nobody"');
  });
});
