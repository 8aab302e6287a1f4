import type { FastifyInstance } from 'fastify';
import type { BusinessSettings } from '../lib/business';
import { formatMoney } from '#shared/money';
import { paths } from '#shared/paths';
import { openDepositAdvice } from '#shared/schemas/invoices';
import { jobNumberOf } from '#shared/schemas/jobs';
import type { DbOrTx } from '../db/client';
import type { JobRow } from '../jobs';
import { composeEmail, enqueueMail } from '../mail';
import { balanceOf, liveInvoiceOfJob } from './repository';

/** The job's deposit invoice while it is sent and not paid in full: its number and what is still owed. */
export async function openDepositOfJob(db: DbOrTx, jobId: string) {
  const deposit = await liveInvoiceOfJob(db, jobId, 'deposit');
  if (!deposit || deposit.state !== 'Sent') return null;
  const balance = await balanceOf(db, deposit);
  return balance > 0 ? { id: deposit.id, number: deposit.number ?? 'Draft', balanceCents: balance } : null;
}

/**
 * A job completed or cancelled while its deposit invoice is open: the owner is told (Settings' "Send
 * owner notices to"), so the client is neither billed twice nor chased for work that will not happen.
 */
export async function noticeOpenDeposit(
  app: FastifyInstance,
  tx: DbOrTx,
  job: JobRow,
  how: 'Completed' | 'Cancelled',
  business: BusinessSettings,
): Promise<void> {
  const deposit = await openDepositOfJob(tx, job.id);
  if (!deposit) return;
  const number = jobNumberOf(job.id);
  const owed = formatMoney(deposit.balanceCents);
  const { html, text } = composeEmail({
    business,
    heading: `Deposit ${deposit.number} is still open`,
    blocks: [
      {
        kind: 'paragraph',
        text: `Job ${number} for ${job.contactName} is ${how.toLowerCase()}, and its deposit invoice ${deposit.number} still has ${owed} unpaid.`,
      },
      {
        kind: 'paragraph',
        text: openDepositAdvice(how),
      },
      {
        kind: 'button',
        label: 'Open the deposit invoice',
        href: `${app.config.PUBLIC_URL}${paths.admin.invoice(deposit.id)}`,
      },
    ],
  });
  await enqueueMail(tx, {
    to: business.ownerEmail,
    subject: `Job ${number} ${how.toLowerCase()}: deposit ${deposit.number} still open (${owed})`,
    html,
    text,
  });
}
