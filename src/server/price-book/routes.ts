import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import { priceBookItem, priceBookItemInput, priceBookList, priceBookQuery } from '#shared/schemas/price-book';
import { addItem, changeItem, listItems, removeItem } from './service';

const itemParams = z.object({ id: z.string().max(64) });

/** The price book: the owner keeps it; the quote builder searches it. Admins only, like quotes. */
export async function priceBookRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const office = { access: 'office' as const };
  const tags = ['price book'];

  r.get(
    '/price-book',
    {
      config: office,
      schema: {
        tags,
        summary: 'Entries whose name or description holds the search, by name',
        querystring: priceBookQuery,
        response: { 200: priceBookList, 400: errorResponse },
      },
    },
    (request) => listItems(app.db, request.query),
  );

  r.post(
    '/price-book',
    {
      config: { ...office, audit: { kind: 'settings', action: 'Added to the price book' } },
      schema: {
        tags,
        summary: 'Add a service or a material',
        body: priceBookItemInput,
        response: { 201: priceBookItem, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await addItem(app.db, request.body)),
  );

  r.put(
    '/price-book/:id',
    {
      config: { ...office, audit: { kind: 'settings', action: 'Changed a price book entry' } },
      schema: {
        tags,
        summary: 'Change an entry (quotes already sent keep their prices)',
        params: itemParams,
        body: priceBookItemInput,
        response: { 200: priceBookItem, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    (request) => changeItem(app.db, request.params.id, request.body),
  );

  r.delete(
    '/price-book/:id',
    {
      config: { ...office, audit: { kind: 'settings', action: 'Removed a price book entry' } },
      schema: {
        tags,
        summary: 'Remove an entry',
        params: itemParams,
        response: { 200: z.object({ ok: z.literal(true) }), 404: errorResponse },
      },
    },
    async (request) => {
      await removeItem(app.db, request.params.id);
      return { ok: true as const };
    },
  );
}
