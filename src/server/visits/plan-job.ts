import type { FastifyInstance } from 'fastify';
import { every } from '../lib/job-board';
import { describeError } from '../lib/safe-error';
import { makePlanVisits } from './plans';
import { remindRenewals } from './service-plans';

const HORIZON_EVERY_MS = 60 * 60 * 1000;
/** The repeating visits' job on the board (the System page). */
export const PLAN_JOB = 'visit-plans';

/**
 * The horizon job (decision 047): two minutes after start and every hour, each open plan's visits are
 * made up to today + its horizon and what is due is invoiced; then the signed service plans ending within
 * 30 days are reminded (once). Safe in several servers at once (each date, invoice and reminder once).
 * Returns a stop function.
 */
export function startPlanVisits(app: FastifyInstance): () => void {
  const log = app.log.child({ component: 'visit-plans' });
  app.jobs.declare(PLAN_JOB, 'Repeating visits', HORIZON_EVERY_MS / 1000);
  return every(
    app.jobs,
    PLAN_JOB,
    {
      everyMs: HORIZON_EVERY_MS,
      firstAfterMs: 120_000,
      onError: (error) => log.error({ err: describeError(error) }, 'making the repeating visits failed'),
    },
    async () => {
      const made = await makePlanVisits(app);
      if (made) log.info({ made }, 'repeating visits made');
      const reminded = await remindRenewals(app, await app.settings.today());
      if (reminded) log.info({ reminded }, 'service plan renewals reminded');
    },
  );
}
