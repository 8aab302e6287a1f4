import { formatMoment } from '#shared/dates';
import { nextBackupAround } from '#shared/backup-schedule';
import type { SystemLine } from '#shared/schemas/system';
import type { JobRecord } from '../lib/job-board';

/** What the System page is made from, gathered by service.ts; the lines are a pure function of it. */
export interface SystemFacts {
  now: Date;
  timeZone: string;
  app: { version: string; node: string; startedAt: Date };
  mail: {
    /** "SMTP mail.example.com:587" or "files in …/mail". */
    transport: string;
    /** false: written to files under DATA_DIR/mail (no SMTP_URL), so nobody receives them. */
    sends: boolean;
    waiting: number;
    oldestWaitingSince: Date | null;
    failing: number;
    oldestFailure: { createdAt: Date; error: string } | null;
    lastSentAt: Date | null;
    reminders: { scheduled: number; lastSentAt: Date | null };
    /** The relay's job (undefined: not started in this process). */
    relay: JobRecord | undefined;
  };
  backups:
    | { kind: 'postgres' }
    | {
        kind: 'pglite';
        everyHours: number;
        kept: number;
        last: { at: Date; size: number } | null;
      };
  jobs: JobRecord[];
  database: {
    kind: 'pglite' | 'postgres';
    version: string;
    sizeBytes: number | null;
    migrations: { applied: number; known: number; newest: string | null };
  };
  disk: { freeBytes: number; totalBytes: number } | null;
  redis: 'up' | 'down' | undefined;
  payments: { enabled: boolean; keyUnreadable: boolean };
  texts: {
    enabled: boolean;
    tokenUnreadable: boolean;
    failedLastDay: number;
    latestFailure: string | null;
    stuck: number;
    oldestStuck: Date | null;
    lastSentAt: Date | null;
  };
}

/** Mail waiting longer than this with nobody sending it means the relay is not running. */
const STUCK_AFTER_MS = 10 * 60_000;
/** An automatic backup later than its period by more than this is missing. */
const BACKUP_GRACE_MS = 2 * 3_600_000;
/** Less free space than this under DATA_DIR (or 5 % of the disk) is red. */
export const LOW_DISK_BYTES = 1024 ** 3;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** "3 h 12 min", "2 days 4 h", "40 s". */
export function formatSpan(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (minutes < 1) return `${Math.round(ms / 1000)} s`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} day${days === 1 ? '' : 's'}${hours ? ` ${hours} h` : ''}`;
  return hours ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function mailLine(f: SystemFacts): SystemLine {
  const { mail } = f;
  const at = (d: Date) => formatMoment(d, f.timeZone);
  const last = mail.lastSentAt ? `The last one left ${at(mail.lastSentAt)}.` : 'None has been sent yet.';
  if (mail.failing > 0 && mail.oldestFailure)
    return {
      key: 'mail',
      label: 'E-mail',
      state: 'failing',
      summary: `${plural(mail.failing, 'e-mail')} could not be sent, the oldest since ${at(mail.oldestFailure.createdAt)}: ${mail.oldestFailure.error}`,
      action: `Check the mail server and its settings (SMTP_URL, MAIL_FROM) for ${mail.transport}. Each e-mail is tried again on its own; "Send again" on the dashboard tries one now.`,
    };
  if (
    mail.waiting > 0 &&
    mail.oldestWaitingSince &&
    f.now.getTime() - mail.oldestWaitingSince.getTime() > STUCK_AFTER_MS
  )
    return {
      key: 'mail',
      label: 'E-mail',
      state: 'failing',
      summary: `${plural(mail.waiting, 'e-mail')} ${mail.waiting === 1 ? 'has' : 'have'} waited to be sent since ${at(mail.oldestWaitingSince)}: nothing is sending them.`,
      action: 'Restart the server. If they still wait, its log says why the mail relay stopped.',
    };
  if (!mail.sends)
    return {
      key: 'mail',
      label: 'E-mail',
      state: 'failing',
      summary: `E-mail is written to ${mail.transport}, not sent: clients and staff receive nothing.`,
      action: 'Set SMTP_URL (and MAIL_FROM) to your mail provider and restart the server.',
    };
  return {
    key: 'mail',
    label: 'E-mail',
    state: 'ok',
    summary: `Sent through ${mail.transport}. ${last}${mail.waiting ? ` ${plural(mail.waiting, 'e-mail')} going out now.` : ''}`,
    action: null,
  };
}

function remindersLine(f: SystemFacts): SystemLine {
  const { scheduled, lastSentAt } = f.mail.reminders;
  return {
    key: 'reminders',
    label: 'Reminders',
    state: 'ok',
    summary: `${scheduled ? `${plural(scheduled, 'reminder')} scheduled` : 'No reminder scheduled'} (visits, quotes, invoices). ${
      lastSentAt ? `The last one left ${formatMoment(lastSentAt, f.timeZone)}.` : 'None has been sent yet.'
    }`,
    action: null,
  };
}

function backupsLine(f: SystemFacts): SystemLine {
  const b = f.backups;
  const base = { key: 'backups', label: 'Backups' };
  if (b.kind === 'postgres')
    return {
      ...base,
      state: 'off',
      summary: 'The data is in PostgreSQL: it is backed up with PostgreSQL’s own tools, on the database server.',
      action: 'Make sure a nightly pg_dump runs (Your data shows the command).',
    };
  if (b.everyHours === 0)
    return {
      ...base,
      state: 'off',
      summary: 'Automatic backups are off (BACKUP_EVERY_HOURS=0).',
      action: 'Download a backup on Your data, or run npm run backup every night.',
    };
  const job = f.jobs.find((j) => j.name === 'backups');
  if (job?.lastError)
    return {
      ...base,
      state: 'failing',
      summary: `The last automatic backup failed ${formatMoment(job.lastErrorAt ?? f.now, f.timeZone)}: ${job.lastError}`,
      action:
        'Check the free disk space under DATA_DIR and the server’s log; download a backup on Your data meanwhile.',
    };
  const dueBy = (from: Date) => from.getTime() + b.everyHours * 3_600_000 + BACKUP_GRACE_MS;
  const late = b.last ? f.now.getTime() > dueBy(b.last.at) : f.now.getTime() > dueBy(f.app.startedAt);
  if (late)
    return {
      ...base,
      state: 'failing',
      summary: b.last
        ? `The newest backup is from ${formatMoment(b.last.at, f.timeZone)}: one is taken every ${plural(b.everyHours, 'hour')}.`
        : `No automatic backup has been taken since the server started ${formatMoment(f.app.startedAt, f.timeZone)}.`,
      action:
        'Check the server’s log and the free disk space under DATA_DIR; download a backup on Your data meanwhile.',
    };
  return {
    ...base,
    state: 'ok',
    summary: b.last
      ? `The newest is from ${formatMoment(b.last.at, f.timeZone)} (${formatBytes(b.last.size)}); the next around ${formatMoment(
          nextBackupAround(b.last.at, b.everyHours, f.timeZone),
          f.timeZone,
        )}. ${plural(b.kept, 'backup')} kept.`
      : 'The first automatic backup is taken a minute after the server starts.',
    action: null,
  };
}

function jobLine(f: SystemFacts, job: JobRecord): SystemLine {
  const at = (d: Date) => formatMoment(d, f.timeZone);
  const every = formatSpan(job.everySeconds * 1000);
  const next = job.nextRunAt ? ` Next: ${at(job.nextRunAt)}.` : '';
  const base = { key: `job:${job.name}`, label: job.label };
  if (job.lastError)
    return {
      ...base,
      state: 'failing',
      summary: `Runs every ${every}. The last run failed ${at(job.lastErrorAt ?? f.now)}: ${job.lastError}.${next}`,
      action: 'The next run tries again; the server’s log has the whole error.',
    };
  // Late: a job that should have run three times over and has not finished one run.
  const since = job.lastFinishedAt ?? f.app.startedAt;
  const overdue = f.now.getTime() - since.getTime() > Math.max(3 * job.everySeconds * 1000, 5 * 60_000) + 60_000;
  if (overdue && !(job.lastStartedAt && job.lastStartedAt > since))
    return {
      ...base,
      state: 'failing',
      summary: job.lastFinishedAt
        ? `Runs every ${every}, but has not run since ${at(job.lastFinishedAt)}.`
        : `Runs every ${every}, but has not run since the server started.`,
      action: 'Restart the server; if it stays red, its log says why.',
    };
  return {
    ...base,
    state: 'ok',
    summary: `Runs every ${every}. ${
      job.lastFinishedAt ? `Last run ${at(job.lastFinishedAt)}.` : 'It has not run yet since the server started.'
    }${next}`,
    action: null,
  };
}

function databaseLine(f: SystemFacts): SystemLine {
  const d = f.database;
  const kind = d.kind === 'pglite' ? 'Embedded (PGlite)' : 'PostgreSQL';
  const migrations = `${plural(d.migrations.applied, 'migration')} applied${d.migrations.newest ? `, the newest ${d.migrations.newest}` : ''}`;
  const size = d.sizeBytes !== null ? `, ${formatBytes(d.sizeBytes)}` : '';
  if (d.migrations.applied < d.migrations.known)
    return {
      key: 'database',
      label: 'Database',
      state: 'failing',
      summary: `${kind} ${d.version}${size}: ${migrations}, of ${d.migrations.known} this version carries.`,
      action: 'Restart the server: it applies the missing migrations when it starts.',
    };
  return {
    key: 'database',
    label: 'Database',
    state: 'ok',
    summary: `${kind} ${d.version}${size}. ${migrations}.`,
    action: null,
  };
}

function diskLine(f: SystemFacts): SystemLine {
  if (!f.disk)
    return {
      key: 'disk',
      label: 'Disk space',
      state: 'off',
      summary: 'The free space under DATA_DIR could not be read on this system.',
      action: null,
    };
  const { freeBytes, totalBytes } = f.disk;
  const low = freeBytes < LOW_DISK_BYTES || freeBytes < totalBytes * 0.05;
  return {
    key: 'disk',
    label: 'Disk space',
    state: low ? 'failing' : 'ok',
    summary: `${formatBytes(freeBytes)} free of ${formatBytes(totalBytes)} under DATA_DIR.`,
    action: low
      ? 'Free some space or move DATA_DIR to a larger disk: backups, photos and documents need room to be written.'
      : null,
  };
}

function redisLine(f: SystemFacts): SystemLine | null {
  if (!f.redis) return null;
  return f.redis === 'up'
    ? {
        key: 'redis',
        label: 'Redis',
        state: 'ok',
        summary: 'Answering: limits and sign-in counters are shared.',
        action: null,
      }
    : {
        key: 'redis',
        label: 'Redis',
        state: 'failing',
        summary: 'Not answering: each server keeps its own limits and sign-in counters meanwhile.',
        action: 'Start Redis or check REDIS_URL; the server reconnects by itself.',
      };
}

function paymentsLine(f: SystemFacts): SystemLine {
  if (f.payments.keyUnreadable)
    return {
      key: 'payments',
      label: 'Card payments',
      state: 'failing',
      summary: 'The saved Stripe key cannot be read by this install (a database restored from another one).',
      action: 'Enter the Stripe keys again in Settings → Online payments.',
    };
  return f.payments.enabled
    ? { key: 'payments', label: 'Card payments', state: 'ok', summary: 'On, with your Stripe account.', action: null }
    : {
        key: 'payments',
        label: 'Card payments',
        state: 'off',
        summary: 'Off: clients pay by the ways the invoice lists.',
        action: 'To take cards, add your Stripe key in Settings → Online payments.',
      };
}

/** Texts to clients (decision 045): off, on, or what needs the owner (a token unreadable, failures, a stuck relay). */
function textsLine(f: SystemFacts): SystemLine {
  const { texts } = f;
  const line = { key: 'texts', label: 'Text messages' };
  const at = (d: Date) => formatMoment(d, f.timeZone);
  if (texts.tokenUnreadable)
    return {
      ...line,
      state: 'failing',
      summary: 'The saved Twilio auth token cannot be read by this install (a database restored from another one).',
      action: 'Enter the auth token again in Settings → Text messages.',
    };
  if (!texts.enabled)
    return {
      ...line,
      state: 'off',
      summary: 'Off: clients are e-mailed only.',
      action: 'To text clients about their visits, add your Twilio account in Settings → Text messages.',
    };
  if (texts.stuck > 0 && texts.oldestStuck)
    return {
      ...line,
      state: 'failing',
      summary: `${plural(texts.stuck, 'text')} ${texts.stuck === 1 ? 'has' : 'have'} waited to be sent since ${at(texts.oldestStuck)}: nothing is sending them.`,
      action: 'Restart the server. If they still wait, its log says why the text relay stopped.',
    };
  if (texts.failedLastDay > 0)
    return {
      ...line,
      state: 'failing',
      summary: `${plural(texts.failedLastDay, 'text')} could not be delivered in the last day. The latest: ${texts.latestFailure ?? 'no reason given'}.`,
      action:
        "Each is on its client's page (Texts), with Send again by text or by e-mail; the dashboard lists them. A number that cannot take texts needs another, or e-mail.",
    };
  return {
    ...line,
    state: 'ok',
    summary: `On, with your Twilio account. ${texts.lastSentAt ? `The last text left ${at(texts.lastSentAt)}.` : 'None has been sent yet.'}`,
    action: null,
  };
}

function appLine(f: SystemFacts): SystemLine {
  return {
    key: 'app',
    label: 'This server',
    state: 'ok',
    summary: `Version ${f.app.version} on Node.js ${f.app.node}, running for ${formatSpan(
      f.now.getTime() - f.app.startedAt.getTime(),
    )} (since ${formatMoment(f.app.startedAt, f.timeZone)}).`,
    action: null,
  };
}

/** The System page's lines, in the order the page shows them: each green, red (with what to do) or off. */
export function systemLines(f: SystemFacts): SystemLine[] {
  const jobs = f.jobs.map((job) => jobLine(f, job));
  return [
    mailLine(f),
    remindersLine(f),
    backupsLine(f),
    ...jobs,
    databaseLine(f),
    diskLine(f),
    redisLine(f),
    paymentsLine(f),
    textsLine(f),
    appLine(f),
  ].filter((line): line is SystemLine => line !== null);
}
