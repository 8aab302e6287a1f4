import { Box } from '@mantine/core';
import { useParams } from 'react-router';
import { ClientTexts } from '../../components/client-texts';
import JobDetailPage from '../../features/jobs/pages/job-detail-page';
import { JobVisits } from '../../features/visits/components/job-visits';
import { JobPlans } from '../../features/visits/components/job-plans';
import { OfficeRecord } from '../../features/job-records/components/office-record';
import { UntickedNotice } from '../../features/job-records/components/unticked-notice';
import { JobInvoice } from '../../features/invoices/components/job-invoice';
import { OpenDepositAlert } from '../../features/invoices/components/open-deposit-alert';
import { useJobInvoice } from '../../features/invoices/api/invoices';

/**
 * The job page composes the job itself, its visits, the crew's record of the work, the invoice and the
 * texts to the client about the job (and, once the job has ended, an unpaid deposit at the top).
 */
export default function JobPage() {
  const { jobId = '' } = useParams();
  // Asked for beside the job, not after it: the unpaid deposit's notice is there when the page is drawn.
  // The page waits for its first answer only: one that failed is tried again behind a page already drawn.
  const invoices = useJobInvoice(jobId);
  return (
    <JobDetailPage
      notices={(job) => <OpenDepositAlert jobId={job._id} status={job.status} />}
      noticesLoading={invoices.isPending && invoices.failureCount === 0}
      beforeCompleting={(job) => <UntickedNotice jobId={job._id} />}
      moreSections={(job) => (
        <>
          <JobVisits jobId={job._id} open={job.status === 'Not Started' || job.status === 'In Progress'} />
          <JobPlans jobId={job._id} open={job.status === 'Not Started' || job.status === 'In Progress'} />
          <OfficeRecord jobId={job._id} />
          <Box mt="md">
            <JobInvoice jobId={job._id} completed={job.status === 'Completed'} />
          </Box>
          {job.clientId ? (
            <Box mt="md">
              <ClientTexts
                clientId={job.clientId}
                hasEmail={Boolean(job.contactPerson.email)}
                about={{ jobId: job._id }}
                title="Texts about this job"
              />
            </Box>
          ) : null}
        </>
      )}
    />
  );
}
