import type { DbOrTx } from '../db/client';
import type { TokenService } from '../lib/tokens';
import { recordLinks } from './links';
import { reportAtOf } from './repository';

/**
 * A completed job's report for the client's status page: when it was made, and (when asked) a signed
 * address of the very PDF e-mailed to the client on completion. Undefined before a report exists.
 */
export async function jobReportOf(
  db: DbOrTx,
  tokens: TokenService,
  jobId: string,
  withLink: boolean,
): Promise<{ at: Date; href: string | null } | undefined> {
  const at = await reportAtOf(db, jobId);
  if (!at) return undefined;
  return { at, href: withLink ? await recordLinks(tokens).report(jobId) : null };
}
