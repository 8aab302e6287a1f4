import { EmployeeDashboardPage } from '../../features/employee/pages/employee-jobs-page';
import { MyVisits } from '../../features/visits/components/my-visits';

/** The crew's home: Today and Upcoming visits, then their open jobs. */
export default function EmployeeHomePage() {
  return <EmployeeDashboardPage visits={<MyVisits />} />;
}
