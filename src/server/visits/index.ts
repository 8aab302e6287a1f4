// The visits feature's public entry: when crews are at jobs, for the office, the crew, the client and calendars.
export { hasBookedVisit, nextVisitOfRequest, visitsOfJob, visitsStarting } from './repository';
export { visitRoutes } from './routes';
export { confirmVisit, endComingVisits, restoreComingVisits } from './service';
export { clientVisitCalendarPath } from './client-calendar';
