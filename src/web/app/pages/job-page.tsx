import JobDetailPage from '../../features/jobs/pages/job-detail-page';
import { JobVisits } from '../../features/visits/components/job-visits';

/** The job page composes the job itself and its visits. */
export default function JobPage() {
  return (
    <JobDetailPage
      visitsSection={(job) => (
        <JobVisits jobId={job._id} open={job.status === 'Not Started' || job.status === 'In Progress'} />
      )}
    />
  );
}
