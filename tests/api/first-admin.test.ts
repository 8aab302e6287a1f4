import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/server/lib/passwords';
import { ensureFirstAdmin } from '../../src/server/users/first-admin';
import { findUserByUsername, insertUser } from '../../src/server/users/repository';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db';

describe.each(dbKinds)('first admin (%s)', (kind) => {
  let database: TestDatabase;
  afterEach(() => database.destroy());

  it('creates the configured admin once', async () => {
    database = await createTestDatabase(kind);
    expect(await ensureFirstAdmin(database.db, 'owner', 'owner-password')).toEqual({
      created: true,
      username: 'owner',
    });
    const owner = await findUserByUsername(database.db, 'owner');
    expect(owner?.role).toBe('admin');
    expect(owner?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(owner!.passwordHash, 'owner-password')).toBe(true);
    expect(await ensureFirstAdmin(database.db, 'owner', 'owner-password')).toEqual({ created: false });
  });

  it('generates a strong password for "admin" when none is configured', async () => {
    database = await createTestDatabase(kind);
    const result = await ensureFirstAdmin(database.db);
    expect(result.username).toBe('admin');
    expect(result.generatedPassword).toMatch(/^[A-Za-z0-9]{20}$/);
    const admin = await findUserByUsername(database.db, 'admin');
    expect(await verifyPassword(admin!.passwordHash, result.generatedPassword!)).toBe(true);
    expect((await ensureFirstAdmin(database.db)).created).toBe(false);
  });

  it('does not collide with an employee already called admin', async () => {
    database = await createTestDatabase(kind);
    await insertUser(database.db, { username: 'Admin', passwordHash: 'x', teamRole: 'crew' });
    const result = await ensureFirstAdmin(database.db);
    expect(result.username).toMatch(/^admin-[a-z0-9]{4}$/);
  });

  it('makes ADMIN_USERNAME an admin again when it names an existing account and no admin is left (issue 11)', async () => {
    database = await createTestDatabase(kind);
    const hash = await hashPassword('the-owners-own-password');
    const owner = await insertUser(database.db, { username: 'owner', passwordHash: hash, teamRole: 'crew' });
    expect(await ensureFirstAdmin(database.db, 'Owner', 'another-password')).toEqual({
      created: false,
      promoted: true,
      username: 'owner',
    });
    const after = await findUserByUsername(database.db, 'owner');
    expect(after).toMatchObject({
      id: owner.id,
      role: 'admin',
      passwordHash: hash,
      tokenVersion: owner.tokenVersion + 1,
    });
    // Once there is an admin, nothing changes.
    expect(await ensureFirstAdmin(database.db, 'owner', 'another-password')).toEqual({ created: false });
  });
});
