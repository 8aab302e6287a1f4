import type { FastifyInstance } from 'fastify';
import { every } from '../lib/job-board';
import { describeError } from '../lib/safe-error';
import { backupIfDue } from './service';

const CHECK_EVERY_MS = 10 * 60 * 1000;
/** The automatic backups' job on the board (the System page). */
export const BACKUP_JOB = 'backups';

/**
 * The running server's daily backup of the embedded database: looked for a minute after start and
 * every ten minutes, taken when due (`backupDue`: the first at once, then in the business's night, or
 * when the newest is BACKUP_EVERY_HOURS old). Returns a stop function.
 */
export function startAutomaticBackups(app: FastifyInstance): () => void {
  const everyHours = app.config.BACKUP_EVERY_HOURS;
  if (app.database.kind !== 'pglite' || everyHours === 0) return () => {};
  const log = app.log.child({ component: 'backups' });
  app.jobs.declare(BACKUP_JOB, 'Automatic backups', CHECK_EVERY_MS / 1000);
  return every(
    app.jobs,
    BACKUP_JOB,
    {
      everyMs: CHECK_EVERY_MS,
      firstAfterMs: 60_000,
      onError: (error) => log.error({ err: describeError(error) }, 'the automatic backup failed'),
    },
    async () => {
      const { backupsToKeep: keep, timeZone } = await app.settings.current();
      const file = await backupIfDue(app.database, app.config.DATA_DIR, { everyHours, keep, timeZone });
      if (file) log.info({ file }, 'backup written');
    },
  );
}
