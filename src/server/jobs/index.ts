// The jobs feature's public entry.
export { addJobWorkers, completedJobStats, findJobById, jobsOfRequests, type JobRow } from './repository';
export { createJobForAcceptedQuote } from './service';
export { jobRoutes } from './routes';
export { employeeRoutes } from './employee-routes';
