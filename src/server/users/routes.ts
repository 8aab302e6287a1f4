import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WORKER_TAGS } from '../../shared/constants';
import { messages } from '../../shared/messages';
import { errorResponse } from '../../shared/schemas/errors';
import { pageQuery, totalPagesOf } from '../../shared/schemas/paging';
import { addUserInput, updateUserInput, userView } from '../../shared/schemas/users';
import { hashPassword } from '../auth/passwords';
import { users } from '../db/schema';
import { badRequest, notFound } from '../plugins/errors';
import { countAdmins, findUserById, findUserByUsername, insertUser, listUsers, searchEmployees, toUserView } from './repository';

const tagList = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(',').filter(Boolean) : []))
  .pipe(z.array(z.enum(WORKER_TAGS)));

/** Staff accounts: admins only. */
export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: 'admin' as const };
  const tags = ['users'];

  r.get(
    '/users',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Staff accounts, a page at a time',
        querystring: pageQuery,
        response: { 200: z.object({ users: z.array(userView), totalPages: z.number(), total: z.number() }) },
      },
    },
    async (request) => {
      const { rows, total } = await listUsers(app.db, request.query);
      return { users: rows.map(toUserView), totalPages: totalPagesOf(total, request.query.limit), total };
    },
  );

  r.get(
    '/users/search-employees',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Employees by name and skills, to assign to a job',
        querystring: z.object({ fullName: z.string().trim().max(100).default(''), tags: tagList }),
        response: { 200: z.array(userView) },
      },
    },
    async (request) => (await searchEmployees(app.db, request.query.fullName, request.query.tags)).map(toUserView),
  );

  r.post(
    '/users/adduser',
    { config: admin, schema: { tags, summary: 'Add a staff account', body: addUserInput, response: { 201: userView, 400: errorResponse } } },
    async (request, reply) => {
      const { password, ...fields } = request.body;
      if (await findUserByUsername(app.db, fields.username)) throw badRequest(messages.usernameTaken);
      const row = await insertUser(app.db, { ...fields, passwordHash: await hashPassword(password) });
      return reply.code(201).send(toUserView(row));
    },
  );

  r.post(
    '/users/updateuser',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change a staff account (the password only when given)',
        body: updateUserInput,
        response: { 200: userView, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const { _id, password, ...fields } = request.body;
      const current = await findUserById(app.db, _id);
      if (!current) throw notFound('User not found');
      const clash = await findUserByUsername(app.db, fields.username);
      if (clash && clash.id !== _id) throw badRequest(messages.usernameTaken);
      if (current.role === 'admin' && fields.role !== 'admin') {
        if (_id === request.user!.id) throw badRequest('You cannot remove your own admin role');
        if ((await countAdmins(app.db)) <= 1) throw badRequest('The last admin cannot be changed to an employee');
      }
      // A new password or role ends the sessions signed with the old ones.
      const revoke = Boolean(password) || fields.role !== current.role;
      const [row] = await app.db
        .update(users)
        .set({
          ...fields,
          ...(password ? { passwordHash: await hashPassword(password) } : {}),
          ...(revoke ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
        })
        .where(eq(users.id, _id))
        .returning();
      return toUserView(row!);
    },
  );

  r.delete(
    '/users/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Delete a staff account',
        params: z.object({ id: z.string() }),
        response: { 200: z.object({ deleted: z.literal(true) }), 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (id === request.user!.id) throw badRequest('You cannot delete your own account');
      const deleted = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .delete(users)
          .where(
            and(eq(users.id, id), sql`(${users.role} <> 'admin' or (select count(*) from ${users} where ${users.role} = 'admin' and ${ne(users.id, id)}) > 0)`),
          )
          .returning({ id: users.id });
        return row;
      });
      if (!deleted) {
        if (await findUserById(app.db, id)) throw badRequest('The last admin cannot be deleted');
        throw notFound('User not found');
      }
      return { deleted: true as const };
    },
  );
}
