import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import { pageQuery, totalPagesOf } from '#shared/schemas/paging';
import {
  addUserInput,
  feedReset,
  skill,
  updateUserInput,
  userDeleted,
  userList,
  userView,
} from '#shared/schemas/users';
import { listUsers, searchEmployees, toUserView } from './repository';
import { addUser, deleteUser, resetUserFeed, updateUser } from './service';

const tagList = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(',').filter(Boolean) : []))
  .pipe(z.array(skill).max(20));

/** Staff accounts: admins only. */
export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const owner = { access: 'owner' as const };
  const tags = ['users'];

  r.get(
    '/users',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Staff accounts, a page at a time',
        querystring: pageQuery,
        response: { 200: userList },
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
      // The office assigns workers to jobs and visits.
      config: { access: 'office' },
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
    {
      config: { ...owner, audit: { kind: 'users', action: 'Created a user' } },
      schema: {
        tags,
        summary: 'Add a staff account',
        body: addUserInput,
        response: { 201: userView, 400: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(toUserView(await addUser(app, request.body))),
  );

  r.post(
    '/users/updateuser',
    {
      config: { ...owner, audit: { kind: 'users', action: 'Changed a user' } },
      schema: {
        tags,
        summary: 'Change a staff account (the password only when given)',
        body: updateUserInput,
        response: { 200: userView, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => toUserView(await updateUser(app, request.user!.id, request.body)),
  );

  r.delete(
    '/users/:id',
    {
      config: { ...owner, audit: { kind: 'users', action: 'Deleted a user' } },
      schema: {
        tags,
        summary: 'Delete a staff account',
        params: z.object({ id: z.string() }),
        response: { 200: userDeleted, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      await deleteUser(app, request.user!.id, request.params.id);
      return { deleted: true as const };
    },
  );

  r.post(
    '/users/:id/calendar-feed/reset',
    {
      config: { ...owner, audit: { kind: 'users', action: "Ended a user's calendar feed address" } },
      schema: {
        tags,
        summary:
          "End a user's calendar feed address (a lost phone, a shared link); they get a new one when they next look",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: feedReset, 404: errorResponse },
      },
    },
    async (request) => {
      await resetUserFeed(app, request.params.id);
      return { reset: true as const };
    },
  );
}
