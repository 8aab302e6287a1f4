// The jobs feature's public entry.
export {
  addJobWorkers,
  completedJobStats,
  findJobById,
  isAssigned,
  jobDetail,
  jobsLacking,
  jobNames,
  jobsOfRequests,
  type JobRow,
} from './repository';
export {
  changeJobStatus,
  checkJobMove,
  createJobForAcceptedQuote,
  lifecycleStep,
  moveJobFrom,
  type JobLifecycle,
} from './service';
export { jobRoutes, type CompleteJob } from './routes';
export { employeeRoutes } from './employee-routes';
