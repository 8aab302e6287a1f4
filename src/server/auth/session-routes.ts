import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionList, type SessionList } from '#shared/schemas/auth';
import { done, errorResponse } from '#shared/schemas/errors';
import type { DbOrTx } from '../db/client';
import { notFound } from '../lib/http-errors';
import { findUserById } from '../users';
import { endUserSession, listSessions } from './sessions';

async function sessionsOf(db: DbOrTx, userId: string, currentSessionId: string | null): Promise<SessionList> {
  const rows = await listSessions(db, userId);
  return {
    sessions: rows.map((row) => ({
      _id: row.id,
      device: row.device,
      ip: row.ip,
      signedInAt: row.signedInAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      current: row.id === currentSessionId,
    })),
  };
}

/**
 * Where each staff member is signed in (issue 33): their own sessions on Your account, anyone's for an
 * admin on Users; each can be signed out alone, its token refused at once.
 */
export async function sessionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  // Open before two-step sign-in is set up (Settings may require it): a person may still see and end them.
  const own = { access: 'staff' as const, beforeTwoStep: true, sessionOnly: true };

  r.get(
    '/account/sessions',
    {
      config: own,
      schema: {
        tags,
        summary: 'Where the signed-in person is signed in: each live session, its browser and when it was last used',
        response: { 200: sessionList },
      },
    },
    (request) => sessionsOf(app.db, request.user!.id, request.sessionId),
  );

  r.delete(
    '/account/sessions/:id',
    {
      config: { ...own, audit: { kind: 'sign-in', action: 'Signed out a session' } },
      schema: {
        tags,
        summary: "Sign out one of one's own sessions: its token stops working at once",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: done, 404: errorResponse },
      },
    },
    async (request) => {
      const ended = await app.db.transaction((tx) => endUserSession(tx, request.user!.id, request.params.id));
      if (!ended) throw notFound('That session has already ended');
      return { ok: true as const };
    },
  );

  r.get(
    '/users/:id/sessions',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: "A user's live sessions: browser, address, signed in and last used",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: sessionList, 404: errorResponse },
      },
    },
    async (request) => {
      if (!(await findUserById(app.db, request.params.id))) throw notFound('User not found');
      return sessionsOf(app.db, request.params.id, request.sessionId);
    },
  );

  r.delete(
    '/users/:id/sessions/:sessionId',
    {
      config: { access: 'owner', audit: { kind: 'users', action: "Signed out one of a user's sessions" } },
      schema: {
        tags: ['users'],
        summary: "Sign out one of a user's sessions (a phone left signed in): its token stops working at once",
        params: z.object({ id: z.string().max(64), sessionId: z.string().max(64) }),
        response: { 200: done, 404: errorResponse },
      },
    },
    async (request) => {
      const { id, sessionId } = request.params;
      const ended = await app.db.transaction((tx) => endUserSession(tx, id, sessionId));
      if (!ended) throw notFound('That session has already ended');
      return { ok: true as const };
    },
  );
}
