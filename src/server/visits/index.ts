// The visits feature's public entry: when crews are at jobs, for the office, the crew, the client and calendars.
export { hasBookedVisit, nextVisitOfRequest, visitsOfJob, visitsOfRequest, visitsStarting } from './repository';
export { visitRoutes } from './routes';
export { servicePlanRoutes } from './service-plan-routes';
export { bookEstimateVisit, confirmVisit, endComingVisits, endEstimateVisits, restoreComingVisits } from './service';
export { clientVisitCalendarPath } from './client-calendar';
export {
  cancelVisitForClient,
  moveVisitForClient,
  visitOfClient,
  type Asker,
  type ChangeCheck,
  type ClientVisit,
} from './client-changes';
export { overlappingVisits as busyTimesOf, calendarVersionNow, visitCountsOf } from './repository';
export { makePlanVisits, recurringFigures, RECURRING_AHEAD_DAYS } from './plans';
export { startPlanVisits } from './plan-job';
export { plansOfClientPage, remindRenewals } from './service-plans';
