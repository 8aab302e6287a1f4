// The activity feature's public entry: a request's history, written by the features that change it.
export {
  cancelReminders,
  hasActivitySince,
  recordActivity,
  requestsOfMail,
  sentReminderDays,
  requestTimeline,
  type NewActivity,
} from './repository';
export { activityRoutes } from './routes';
