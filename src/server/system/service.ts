import fs from 'node:fs';
import { desc, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatMoment, todayIn } from '#shared/dates';
import { paths } from '#shared/paths';
import type { SystemView } from '#shared/schemas/system';
import { backupState } from '../backups';
import { migrationState } from '../db/versions';
import { every } from '../lib/job-board';
import { describeError } from '../lib/safe-error';
import { composeEmail, enqueueMail, outboxState, RELAY_JOB } from '../mail';
import { textSettingsView, textsState } from '../texts';
import { onlinePaymentsView } from '../payments';
import { projectRoot } from '../paths';
import { systemLines, type SystemFacts } from './lines';
import { systemAlerts } from './tables';

const appVersion: string = (JSON.parse(fs.readFileSync(`${projectRoot}/package.json`, 'utf8')) as { version: string })
  .version;

/** The database's own version ("16.4") and size, read with plain SQL both databases answer. */
async function databaseFacts(app: FastifyInstance): Promise<SystemFacts['database']> {
  const result = (await app.db.execute(
    sql`select current_setting('server_version') as version, pg_database_size(current_database())::text as size`,
  )) as unknown as { rows: { version: string; size: string | null }[] };
  const row = result.rows[0];
  return {
    kind: app.database.kind,
    version: (row?.version ?? '').split(' ')[0] ?? '',
    sizeBytes: row?.size ? Number(row.size) : null,
    migrations: await migrationState(app.db),
  };
}

function diskFacts(dataDir: string): SystemFacts['disk'] {
  try {
    const stats = fs.statfsSync(dataDir);
    return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
  } catch {
    return null;
  }
}

/** Everything the System page's lines are made from, read now. */
export async function systemFacts(app: FastifyInstance, now = new Date()): Promise<SystemFacts> {
  const [business, outbox, database, payments, textSettings, texts] = await Promise.all([
    app.settings.current(),
    outboxState(app.db),
    databaseFacts(app),
    onlinePaymentsView(app),
    textSettingsView(app),
    textsState(app.db),
  ]);
  return {
    now,
    timeZone: business.timeZone,
    app: {
      version: appVersion,
      node: process.version,
      startedAt: new Date(Date.now() - process.uptime() * 1000),
    },
    mail: {
      transport: app.mail.transportName,
      sends: !app.mail.transportName.startsWith('files in '),
      ...outbox,
      relay: app.jobs.get(RELAY_JOB),
    },
    backups: backupState(app.database.kind, app.config.DATA_DIR, app.config.BACKUP_EVERY_HOURS),
    jobs: app.jobs.list(),
    database,
    disk: diskFacts(app.config.DATA_DIR),
    redis: app.redisState(),
    payments: { enabled: payments.enabled, keyUnreadable: payments.keyUnreadable },
    texts: { enabled: textSettings.enabled, tokenUnreadable: textSettings.tokenUnreadable, ...texts },
  };
}

async function lastAlert(app: FastifyInstance): Promise<SystemView['lastAlert']> {
  const [row] = await app.db
    .select({ day: systemAlerts.day, lines: systemAlerts.lines })
    .from(systemAlerts)
    .orderBy(desc(systemAlerts.day))
    .limit(1);
  return row ?? null;
}

/** GET /api/system. */
export async function systemView(app: FastifyInstance, now = new Date()): Promise<SystemView> {
  const [facts, alert, business] = await Promise.all([systemFacts(app, now), lastAlert(app), app.settings.current()]);
  return { checkedAt: now.toISOString(), lines: systemLines(facts), lastAlert: alert, alertsTo: business.ownerEmail };
}

/**
 * The owner's e-mail of the red lines: at most one a day (the business's day), whatever fails and
 * however often this is asked. The day's row and the e-mail are written in one transaction, and the
 * row's key is the day, so two servers (or a restart) cannot both send it.
 */
export async function alertIfRed(app: FastifyInstance, now = new Date()): Promise<'sent' | 'all-green' | 'sent-today'> {
  const facts = await systemFacts(app, now);
  const red = systemLines(facts).filter((line) => line.state === 'failing');
  if (red.length === 0) return 'all-green';
  const business = await app.settings.current();
  const day = todayIn(business.timeZone, now);
  const { html, text } = composeEmail({
    business,
    heading: red.length === 1 ? 'One thing needs you' : `${red.length} things need you`,
    blocks: [
      {
        kind: 'paragraph',
        text: `The System page found ${red.length === 1 ? 'this' : 'these'} at ${formatMoment(now, business.timeZone)}:`,
      },
      ...red.flatMap((line) => [
        { kind: 'emphasis' as const, label: line.label, value: line.summary },
        { kind: 'paragraph' as const, text: `What to do: ${line.action ?? 'see the System page.'}` },
      ]),
      { kind: 'button', label: 'Open the System page', href: `${app.config.PUBLIC_URL}${paths.admin.system}` },
      {
        kind: 'paragraph',
        text: 'This e-mail is sent at most once a day while something is red.',
      },
    ],
  });
  return app.db.transaction(async (tx) => {
    const claimed = await tx
      .insert(systemAlerts)
      .values({ day, lines: red.map((line) => line.key) })
      .onConflictDoNothing()
      .returning({ day: systemAlerts.day });
    if (claimed.length === 0) return 'sent-today';
    await enqueueMail(tx, {
      to: business.ownerEmail,
      subject: `${business.name}: ${red.length === 1 ? `${red[0]!.label} needs you` : `${red.length} things need you`} (System page)`,
      html,
      text,
    });
    return 'sent';
  });
}

/** The daily check's job on the board. */
export const ALERT_JOB = 'system-alert';
const ALERT_EVERY_MS = 15 * 60_000;

/** Looks for red lines every 15 minutes (first two minutes after start); e-mails them once a day. */
export function startSystemAlerts(app: FastifyInstance): () => void {
  app.jobs.declare(ALERT_JOB, 'Red-line e-mail to the owner', ALERT_EVERY_MS / 1000);
  const log = app.log.child({ component: 'system' });
  return every(
    app.jobs,
    ALERT_JOB,
    {
      everyMs: ALERT_EVERY_MS,
      firstAfterMs: 2 * 60_000,
      onError: (error) => log.error({ err: describeError(error) }, 'the System check failed'),
    },
    async () => {
      const outcome = await alertIfRed(app);
      if (outcome === 'sent') log.warn('something on the System page is red: the owner was e-mailed');
    },
  );
}
