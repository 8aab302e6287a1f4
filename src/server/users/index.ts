// The users feature's public entry: what other features may use. Everything else is internal.
export { findUserById, findUserByUsername, insertUser, schedulesOf, staffName, type UserRow } from './repository';
export { ensureFirstAdmin } from './first-admin';
export {
  feedOwnerOf,
  feedToken,
  regenerateFeedToken,
  resetFeeds,
  sealLegacyFeedTokens,
  type FeedOwner,
} from './calendar-feeds';
export { userRoutes } from './routes';
export { scheduleRoutes } from './schedule-routes';
export { isAdminPassword } from './maintenance-sign-in';
export { timeOffBetween } from './time-off';
