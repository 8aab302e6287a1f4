// Issue 33 (decision 042): four team roles. The spec's role (admin or employee) stays the contract and
// follows from the team role; the migration made every admin an Owner and every employee Crew.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { releaseUpTo } from '../helpers/migration-folders';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { createTestDatabase, dbKinds } from '../helpers/test-db';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-team-roles-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const beforeRoles = releaseUpTo(path.join(tmp, 'before-roles'), '0041_api_keys');

describe.each(dbKinds)('team roles (%s)', (kind) => {
  let t: TestApp;
  let owner: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = bearer((await createUserAndSignIn(t, 'owner')).token);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers = owner) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const person = (username: string, extra: object) => ({
    username,
    password: 'a-long-staff-password',
    fullName: username,
    email: '',
    phone: '',
    tags: [],
    ...extra,
  });
  const roleOf = async (id: string) =>
    (await t.database.db.select({ role: users.role, teamRole: users.teamRole }).from(users).where(eq(users.id, id)))[0];

  it('a spec-only caller still adds an admin (an Owner) or an employee (Crew); a team role is kept as given', async () => {
    const admin = await call('POST', '/api/users/adduser', person('spec.admin', { role: 'admin' }));
    expect(admin.json()).toMatchObject({ role: 'admin', teamRole: 'owner' });
    const employee = await call('POST', '/api/users/adduser', person('spec.crew', { role: 'employee' }));
    expect(employee.json()).toMatchObject({ role: 'employee', teamRole: 'crew' });
    const office = await call('POST', '/api/users/adduser', person('desk', { role: 'admin', teamRole: 'office' }));
    expect(office.statusCode, office.body).toBe(201);
    expect(await roleOf(office.json()._id)).toEqual({ role: 'admin', teamRole: 'office' });
    const lead = await call('POST', '/api/users/adduser', person('lead', { role: 'employee', teamRole: 'crew_lead' }));
    expect(await roleOf(lead.json()._id)).toEqual({ role: 'employee', teamRole: 'crew_lead' });

    // The two must name the same area.
    const torn = await call('POST', '/api/users/adduser', person('torn', { role: 'employee', teamRole: 'office' }));
    expect(torn.json()).toMatchObject({ statusCode: 400, message: 'teamRole: The role and the team role disagree' });
    const unknown = await call('POST', '/api/users/adduser', person('odd', { role: 'admin', teamRole: 'boss' }));
    expect(unknown.statusCode).toBe(400);
  });

  it('an edit that sends only the spec role keeps the team role in the same area, and a new role ends the sessions', async () => {
    const desk = await createUserAndSignIn(t, 'office');
    const view = (await call('GET', `/api/users?search=${desk.user.username}`)).json().users[0];
    const { teamRole: _dropped, ...specOnly } = view;
    const renamed = await call('POST', '/api/users/updateuser', { ...specOnly, fullName: 'Dana Desk', password: '' });
    expect(renamed.json()).toMatchObject({ role: 'admin', teamRole: 'office', fullName: 'Dana Desk' });
    // The same role: the session goes on.
    expect((await call('GET', '/api/dashboard', undefined, bearer(desk.token))).statusCode).toBe(200);

    const toCrew = await call('POST', '/api/users/updateuser', { ...specOnly, role: 'employee', password: '' });
    expect(toCrew.json()).toMatchObject({ role: 'employee', teamRole: 'crew' });
    expect((await call('GET', '/api/login/user-role', undefined, bearer(desk.token))).statusCode).toBe(401);

    const toLead = await call('POST', '/api/users/updateuser', { ...view, role: 'employee', teamRole: 'crew_lead' });
    expect(toLead.json()).toMatchObject({ role: 'employee', teamRole: 'crew_lead' });
  });

  it('Office works the back office but is refused the Owner’s routes, and cannot make itself an Owner', async () => {
    const desk = await createUserAndSignIn(t, 'office');
    const as = bearer(desk.token);
    expect((await call('GET', '/api/invoices', undefined, as)).statusCode).toBe(200);
    expect((await call('GET', '/api/users/search-employees?fullName=', undefined, as)).statusCode).toBe(200);
    const users = await call('GET', '/api/users', undefined, as);
    expect(users.json()).toMatchObject({ statusCode: 403, message: 'This needs the Owner’s account' });
    const promote = await call(
      'POST',
      '/api/users/updateuser',
      { _id: desk.user.id, username: desk.user.username, role: 'admin', teamRole: 'owner', tags: [] },
      as,
    );
    expect(promote.statusCode).toBe(403);
    expect(await roleOf(desk.user.id)).toEqual({ role: 'admin', teamRole: 'office' });
    // The refusal is in the trail, with who tried.
    const trail = (await call('GET', '/api/audit?page=1&limit=20')).json();
    expect(trail.entries).toContainEqual(
      expect.objectContaining({ userId: desk.user.id, action: 'Refused: Changed a user' }),
    );
    // Crew is refused the office's routes too.
    const crew = await createUserAndSignIn(t, 'crew');
    const refused = await call('GET', '/api/invoices', undefined, bearer(crew.token));
    expect(refused.json().message).toBe('This needs an Owner or Office account');
  });

  it('the migration made every admin an Owner and every employee Crew, and kept their tokens’ version', async () => {
    const database = await createTestDatabase(kind, { migrations: beforeRoles });
    try {
      await database.db.execute(sql`insert into users (id, username, password_hash, role, token_version) values
        ('was-admin', 'boss', 'x', 'admin', 3), ('was-employee', 'hand', 'x', 'employee', 0)`);
      await database.migrate();
      const rows = await database.db
        .select({ id: users.id, role: users.role, teamRole: users.teamRole, tokenVersion: users.tokenVersion })
        .from(users)
        .orderBy(users.id);
      expect(rows).toEqual([
        { id: 'was-admin', role: 'admin', teamRole: 'owner', tokenVersion: 3 },
        { id: 'was-employee', role: 'employee', teamRole: 'crew', tokenVersion: 0 },
      ]);
      // The spec's role cannot be written apart from the team role any more.
      await expect(
        database.db.execute(sql`update users set role = 'employee' where id = 'was-admin'`),
      ).rejects.toThrow();
    } finally {
      await database.destroy();
    }
  });
});
