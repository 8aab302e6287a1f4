import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import { exportParams } from '#shared/schemas/exports';
import { csvChunks, sendCsv } from '../lib/csv';
import { downloadCompression, endWhenIdle } from '../lib/downloads';
import { errorBody } from '../lib/http-errors';
import { csvBatches, type Cell, type CsvDataset } from './datasets';
import { completeExport, exportPlaces } from './json';

/** What a full export asked for while two download answers (the export page shows it). */
export const EXPORTS_BUSY = 'Two full exports are downloading now. Try again in a minute, once one has finished.';
const EXPORT_RETRY_SECONDS = 60;

/** The back office's exports: a CSV per part of the business, and everything as one JSON document. */
export async function exportRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const places = exportPlaces();
  r.get(
    '/export/:dataset',
    {
      config: { access: 'owner', audit: { kind: 'data', action: 'Exported data' } },
      compress: downloadCompression,
      schema: {
        tags: ['data'],
        summary:
          'Export as a download: clients.csv, requests.csv, quotes.csv, jobs.csv, visits.csv (spreadsheet-safe), or everything.json',
        params: exportParams,
        produces: ['text/csv', 'application/json'],
        response: { 200: z.any(), 400: errorResponse, 503: errorResponse },
      },
    },
    async (request, reply) => {
      const { dataset } = request.params;
      endWhenIdle(reply, app.config.DOWNLOAD_IDLE_SECONDS);
      if (dataset === 'everything.json') {
        if (!places.holdFor(reply.raw))
          return reply
            .code(503)
            .header('retry-after', String(EXPORT_RETRY_SECONDS))
            .send(errorBody(503, EXPORTS_BUSY, 'SERVICE_UNAVAILABLE'));
        const stamp = new Date();
        return reply
          .type('application/json; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="handyman-export-${stamp.toISOString().slice(0, 10)}.json"`,
          )
          .header('cache-control', 'private, no-store')
          .send(Readable.from(completeExport(app.database, stamp)));
      }
      const name = dataset.replace(/\.csv$/, '') as CsvDataset;
      const { headers, batches } = csvBatches(app.db, name, (await app.settings.current()).timeZone);
      return sendCsv(
        reply,
        dataset,
        csvChunks<Cell[]>(
          batches,
          headers.map((header, i) => ({ header, value: (row) => row[i] })),
        ),
      );
    },
  );
}
