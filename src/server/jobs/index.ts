// The jobs feature's public entry.
export {
  addJobWorkers,
  completedJobStats,
  findJobById,
  followAddressChange,
  isAssigned,
  jobDetail,
  jobsLacking,
  jobNames,
  jobsOfClient,
  jobsOfRequests,
  openJobIds,
  openJobsAtAddress,
  type JobRow,
} from './repository';
export {
  changeJobStatus,
  checkJobMove,
  createJobForAcceptedQuote,
  createJobForServicePlan,
  lifecycleStep,
  moveJobFrom,
  type JobLifecycle,
} from './service';
export { jobRoutes, type CompleteJob } from './routes';
export { employeeRoutes } from './employee-routes';
