import { and, asc, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatMoment, todayIn, wallTimeIn } from '#shared/dates';
import { paths } from '#shared/paths';
import { formatMobile } from '#shared/phone';
import { TEXT_KIND_LABELS } from '#shared/schemas/texts';
import { clientOf } from '../clients';
import { every } from '../lib/job-board';
import { describeError } from '../lib/safe-error';
import { composeEmail, enqueueMail } from '../mail';
import { textFailureNotices, textMessages } from './tables';

/** Not before this hour on the business's clock: the owner reads it with the morning's work. */
const NOT_BEFORE = '08:00';
/** Texts older than this are not listed (the dashboard's "Texts not delivered" looks back as far). */
const LOOK_BACK = sql`interval '7 days'`;
/** At most so many texts in one notice; the rest are counted. */
const MOST_LISTED = 50;
const CHECK_EVERY_MS = 15 * 60_000;
/** The notice's job on the board (the System page). */
export const TEXT_NOTICE_JOB = 'text-failure-notice';

/**
 * The owner's one notice a day of the texts that failed or were not sent (issue 30), instead of one
 * per text: written once a day (the day's row in `text_failure_notices`, however many processes look),
 * from 8 AM on the business's clock, and only when there is something to say. Each text is listed
 * once. Returns how many it listed (0: nothing to say; null: not now, or already sent today).
 */
export async function noticeTextFailures(app: FastifyInstance, now = new Date()): Promise<number | null> {
  const business = await app.settings.current();
  if (wallTimeIn(business.timeZone, now).time < NOT_BEFORE) return null;
  const day = todayIn(business.timeZone, now);
  return app.db.transaction(async (tx) => {
    const unnoticed = and(
      inArray(textMessages.state, ['failed', 'not-sent']),
      isNull(textMessages.ownerNoticedAt),
      // A test text's failure is shown to the owner where they sent it.
      ne(textMessages.kind, 'test'),
      gt(textMessages.createdAt, sql`${now.toISOString()}::timestamptz - ${LOOK_BACK}`),
    );
    const rows = await tx
      .select()
      .from(textMessages)
      .where(unnoticed)
      .orderBy(asc(textMessages.createdAt), asc(textMessages.id))
      .for('update', { skipLocked: true });
    if (rows.length === 0) return 0;
    const [written] = await tx
      .insert(textFailureNotices)
      .values({ day, texts: rows.length })
      .onConflictDoNothing()
      .returning({ day: textFailureNotices.day });
    if (!written) return null;
    await tx
      .update(textMessages)
      .set({ ownerNoticedAt: now })
      .where(
        inArray(
          textMessages.id,
          rows.map((r) => r.id),
        ),
      );
    const listed = await Promise.all(
      rows.slice(0, MOST_LISTED).map(async (row) => {
        const client = row.clientId ? await clientOf(tx, row.clientId) : undefined;
        const who = client?.name ?? formatMobile(row.toNumber);
        const why = row.reason ?? (row.state === 'failed' ? 'Not delivered' : 'Not sent');
        return {
          label: `${who}: ${TEXT_KIND_LABELS[row.kind]}`,
          value: `${formatMoment(row.createdAt, business.timeZone)}. ${why}`,
        };
      }),
    );
    const more = rows.length - listed.length;
    const count = rows.length === 1 ? '1 text' : `${rows.length} texts`;
    const { html, text } = composeEmail({
      business,
      heading: `${count} did not reach clients`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Since the last notice, ${count} to clients failed or could not be sent. Open each client to send it again, by text or by e-mail instead.`,
        },
        { kind: 'details', rows: listed.map((l) => [l.label, l.value] as [string, string]) },
        ...(more > 0 ? [{ kind: 'paragraph' as const, text: `And ${more} more.` }] : []),
        { kind: 'button', label: 'Open the dashboard', href: `${app.config.PUBLIC_URL}${paths.admin.dashboard}` },
      ],
    });
    await enqueueMail(tx, { to: business.ownerEmail, subject: `${count} did not reach clients`, html, text });
    return rows.length;
  });
}

/** Looks every 15 minutes whether today's notice is due. Returns a stop function. */
export function startTextFailureNotices(app: FastifyInstance): () => void {
  const log = app.log.child({ component: 'texts' });
  app.jobs.declare(TEXT_NOTICE_JOB, 'Notice of texts not delivered', CHECK_EVERY_MS / 1000);
  return every(
    app.jobs,
    TEXT_NOTICE_JOB,
    {
      everyMs: CHECK_EVERY_MS,
      firstAfterMs: 60_000,
      onError: (error) => log.error({ err: describeError(error) }, 'the notice of failed texts could not be written'),
    },
    () => noticeTextFailures(app),
  );
}
