import CrewJobPage from '../../features/job-records/pages/crew-job-page';
import { useTeamRole } from '../../lib/team-role';
import { VisitHelpers } from '../../features/visits/components/visit-helpers';

/** A job on the crew's phone; a Crew lead also sees who is with them on its coming visits (decision 042). */
export default function CrewJob() {
  const lead = useTeamRole() === 'crew_lead';
  return <CrewJobPage more={lead ? (jobId) => <VisitHelpers jobId={jobId} /> : undefined} />;
}
