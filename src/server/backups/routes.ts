import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { backupsView } from '#shared/schemas/backups';
import { errorResponse } from '#shared/schemas/errors';
import { conflict } from '../lib/http-errors';
import { backupFileName, listBackups, takeBackup } from './service';

/** The back office's backups: what is kept, and a backup made now and downloaded. */
export async function backupRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/backups',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['data'],
        summary: 'How this install is backed up: the database kind and the automatic backups kept in DATA_DIR/backups',
        response: { 200: backupsView },
      },
    },
    async () => ({
      database: app.database.kind,
      everyHours: app.database.kind === 'pglite' ? app.config.BACKUP_EVERY_HOURS : 0,
      keep: (await app.settings.current()).backupsToKeep,
      backups: app.database.kind === 'pglite' ? listBackups(app.config.DATA_DIR) : [],
    }),
  );

  r.get(
    '/backups/download',
    {
      config: { access: 'owner', audit: { kind: 'data', action: 'Downloaded a backup' } },
      schema: {
        tags: ['data'],
        summary:
          'A backup of the embedded database made now (.tar.gz; restore it with npm run restore); 409 on PostgreSQL, which pg_dump backs up',
        response: { 200: z.any(), 409: errorResponse },
      },
    },
    async (_request, reply) => {
      if (app.database.kind !== 'pglite') {
        throw conflict(
          'This install keeps its data in PostgreSQL (DATABASE_URL): back it up with pg_dump, as the README shows.',
          'BACKUP_NOT_EMBEDDED',
        );
      }
      // Streamed as it is read (decision 024): a backup of any size takes little of the server's memory.
      const file = await takeBackup(app.database, app.config.DATA_DIR);
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${backupFileName(new Date())}"`)
        .header('cache-control', 'private, no-store')
        .send(file);
    },
  );
}
