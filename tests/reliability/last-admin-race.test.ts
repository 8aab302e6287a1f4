// Issue 11, item 3: two admins demoting or deleting each other at the same moment leave one admin.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/lib/passwords';
import { createSession } from '../../src/server/auth/sessions';
import { users } from '../../src/server/db/schema';
import { insertUser } from '../../src/server/users/repository';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ROUNDS = 50;

describe.each(dbKinds)('the last Owner under concurrency (%s)', (kind) => {
  let t: TestApp;
  let passwordHash: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    passwordHash = await hashPassword('a-long-password-nobody-guesses');
  });
  afterAll(() => t.close());

  const admin = async (name: string) => {
    const user = await insertUser(t.database.db, { username: name, passwordHash, teamRole: 'owner', fullName: name });
    const sid = await createSession(t.database.db, user.id, 1, { userAgent: '', ip: '' });
    return { user, token: await t.app.tokens.sign({ sub: user.id, ver: user.tokenVersion, sid }) };
  };
  const view = (u: { id: string; username: string; fullName: string }) => ({
    _id: u.id,
    username: u.username,
    fullName: u.fullName,
    email: '',
    phone: '',
    tags: [],
  });

  it(`keeps an Owner when two Owners remove or demote each other, ${ROUNDS} times`, async () => {
    const outcomes = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      await t.database.db.delete(users);
      const a = await admin(`alice${round}`);
      const b = await admin(`bruno${round}`);
      const byDeletion = round % 2 === 1;
      const remove = (actor: typeof a, target: typeof a) =>
        byDeletion
          ? t.app.inject({ method: 'DELETE', url: `/api/users/${target.user.id}`, headers: bearer(actor.token) })
          : t.app.inject({
              method: 'POST',
              url: '/api/users/updateuser',
              headers: bearer(actor.token),
              // Down to Crew, or to Office (still the back office, no longer an Owner).
              payload: {
                ...view(target.user),
                ...(round % 4 === 0 ? { role: 'employee' } : { role: 'admin', teamRole: 'office' }),
                password: '',
              },
            });
      const results = await Promise.all([remove(a, b), remove(b, a)]);
      for (const r of results) expect([200, 400, 401, 403], r.body).toContain(r.statusCode);
      const key = results
        .map((r) => r.statusCode)
        .sort()
        .join('/');
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      const owners = await t.database.db.select().from(users).where(eq(users.teamRole, 'owner'));
      expect(owners.length, `round ${round} (${byDeletion ? 'deletion' : 'demotion'}): ${key}`).toBe(1);
    }
    // Exactly one of each pair went through every time.
    expect([...outcomes.keys()].every((k) => k.startsWith('200/'))).toBe(true);
  });
});
