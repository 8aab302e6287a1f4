import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLIENT_IMPORT_MAX_BYTES, clientImportPreview, clientImportResult } from '#shared/schemas/client-import';
import { errorResponse } from '#shared/schemas/errors';
import { badRequest } from '../lib/http-errors';
import { importClients, previewImport } from './import';
import { ImportFileError, parseClientCsv, type ParsedImport } from './import-file';

/** The file as sent (text/csv), read whole; a file too large is refused before it is read. */
const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream'];

/** Clients from a CSV file: a preview of what would happen, then the import. Admins only. */
export async function clientImportRoutes(app: FastifyInstance) {
  app.addContentTypeParser(
    CSV_TYPES,
    { parseAs: 'buffer', bodyLimit: CLIENT_IMPORT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['clients'];
  const config = { access: 'office' as const };
  const body = z.instanceof(Buffer, { error: 'Send the CSV file itself as the body (Content-Type: text/csv)' });

  const read = async (file: Buffer): Promise<ParsedImport> => {
    try {
      return await parseClientCsv(file);
    } catch (error) {
      if (error instanceof ImportFileError) throw badRequest(error.message, 'IMPORT_FILE_INVALID');
      throw error;
    }
  };

  r.post(
    '/clients/import/preview',
    {
      config: { ...config, audit: false },
      bodyLimit: CLIENT_IMPORT_MAX_BYTES,
      schema: {
        tags,
        summary:
          'What importing a clients CSV would do (columns matched by header, refused rows with the reason); changes nothing',
        consumes: CSV_TYPES,
        body,
        response: { 200: clientImportPreview, 400: errorResponse, 413: errorResponse },
      },
    },
    async (request) => previewImport(app.db, await read(request.body)),
  );

  r.post(
    '/clients/import',
    {
      config: { ...config, audit: { kind: 'data', action: 'Imported clients' } },
      bodyLimit: CLIENT_IMPORT_MAX_BYTES,
      schema: {
        tags,
        summary:
          'Import clients from CSV (Jobber, Housecall Pro or the template): new e-mails added, known ones merged, 200 at a time (importing the same file again changes nothing)',
        consumes: CSV_TYPES,
        body,
        response: { 200: clientImportResult, 400: errorResponse, 413: errorResponse },
      },
    },
    async (request) => importClients(app.db, await read(request.body)),
  );
}
