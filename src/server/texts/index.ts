// The texts feature's public entry (decision 045): features write texts to the ledger; the relay sends them.
export {
  cancelVisitTexts,
  clientReach,
  enqueueText,
  failingTexts,
  mailsTextedInstead,
  maskPageLink,
  onMyWayText,
  textsSentTo,
  textsState,
  TEXT_QUEUED,
  type ClientReach,
  type OutgoingText,
  type TextContext,
} from './outbox';
export { TextRelay, TEXT_RELAY_JOB } from './relay';
export { noticeTextFailures, startTextFailureNotices, TEXT_NOTICE_JOB } from './failure-notice';
export {
  currentTextProvider,
  emailInsteadOfText,
  STATUS_CALLBACK_PATH,
  textAccountNow,
  textInsteadOfMail,
  textSettingsView,
  type ConfirmVisit,
} from './service';
export { textLinkRoutes, textRoutes } from './routes';
export { outsideQuietHours, parseQuietHours } from './quiet-hours';
