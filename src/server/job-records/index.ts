// The job-records feature's public entry: the crew's record of a job, its completion and report.
export { jobRecordRoutes } from './routes';
export { completeJob, jobExtras } from './service';
export { jobReportOf } from './client-status';
