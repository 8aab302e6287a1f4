import { jobNumberOf } from '#shared/schemas/jobs';
import type { BusinessSettings } from '../lib/business';
import { composeEmail, type OutgoingMail } from '../mail';
import type { JobRow } from '../jobs';

/** The job's report as a stored document (decision 022). */
export const reportKey = (jobId: string) => `job-report:${jobId}`;

/**
 * The job report, to the client (thanks) or the owner (for the files, with the crew's notes for the
 * office, which the client's report and e-mail never carry), with the PDF attached.
 */
export function jobReportMail(
  business: BusinessSettings,
  job: JobRow,
  to: 'client' | 'owner',
  officeNotes = '',
): OutgoingMail {
  const number = jobNumberOf(job.id);
  const address = `${job.street}, ${job.city}`;
  const { html, text } = composeEmail({
    business,
    heading: to === 'client' ? 'Your job is done' : `Job ${number} is completed`,
    blocks:
      to === 'client'
        ? [
            { kind: 'paragraph', text: `Hi ${job.contactName},` },
            {
              kind: 'paragraph',
              text: `We have finished the work at ${address}. The attached report shows what was done, with photos and your sign-off.`,
            },
            { kind: 'paragraph', text: `Thank you for choosing us. Questions? Call us at ${business.phone}.` },
          ]
        : [
            { kind: 'paragraph', text: `The crew completed job ${number} for ${job.contactName} at ${address}.` },
            ...(officeNotes.trim()
              ? [
                  {
                    kind: 'details' as const,
                    rows: [['Notes for the office', officeNotes.trim()]] as [string, string][],
                  },
                ]
              : []),
            { kind: 'paragraph', text: 'The report is attached and on the job’s page.' },
          ],
  });
  return {
    to: to === 'client' ? job.contactEmail : business.ownerEmail,
    subject: to === 'client' ? `Your job report from ${business.name}` : `Job ${number} completed: ${job.contactName}`,
    html,
    text,
    // The stored report, read by the relay when it sends: the outbox holds no copy of it.
    attachments: [
      { filename: `job-report-${number}.pdf`, contentType: 'application/pdf', document: reportKey(job.id) },
    ],
  };
}
