// The jobs feature's public entry.
export {
  addJobWorkers,
  completedJobStats,
  findJobById,
  isAssigned,
  jobDetail,
  jobsOfRequests,
  type JobRow,
} from './repository';
export { changeJobStatus, checkJobMove, createJobForAcceptedQuote, moveJobFrom } from './service';
export { jobRoutes } from './routes';
export { employeeRoutes } from './employee-routes';
