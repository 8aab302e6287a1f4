import { OfflineNote } from '../../components/offline-note';
import { myJobsCopy } from '../../features/employee/api/my-work';
import { EmployeeDashboardPage } from '../../features/employee/pages/employee-jobs-page';
import { myVisitsCopy } from '../../features/visits/api/visits';
import { MyVisits } from '../../features/visits/components/my-visits';

/** The crew's home: Today and Upcoming visits, then their open jobs (what the phone kept, without signal). */
export default function EmployeeHomePage() {
  return (
    <EmployeeDashboardPage offline={<OfflineNote copies={[myVisitsCopy, myJobsCopy(false)]} />} visits={<MyVisits />} />
  );
}
