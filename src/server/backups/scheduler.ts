import type { FastifyInstance } from 'fastify';
import { describeError } from '../lib/safe-error';
import { backupIfDue } from './service';

const CHECK_EVERY_MS = 10 * 60 * 1000;

/**
 * The running server's daily backup of the embedded database: looked for a minute after start and
 * every ten minutes, taken when the newest is older than BACKUP_EVERY_HOURS. Returns a stop function.
 */
export function startAutomaticBackups(app: FastifyInstance): () => void {
  const everyHours = app.config.BACKUP_EVERY_HOURS;
  if (app.database.kind !== 'pglite' || everyHours === 0) return () => {};
  const log = app.log.child({ component: 'backups' });
  let running = false;
  const check = async () => {
    if (running) return;
    running = true;
    try {
      const keep = (await app.settings.current()).backupsToKeep;
      const file = await backupIfDue(app.database, app.config.DATA_DIR, { everyHours, keep });
      if (file) log.info({ file }, 'backup written');
    } catch (error) {
      log.error({ err: describeError(error) }, 'the automatic backup failed');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void check(), 60_000);
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
