// The mail feature's public entry: compose an e-mail, put it in the outbox; the relay sends it.
export { composeBlocks, composeEmail, type Block, type PricedRow } from './compose';
export {
  cancelMail,
  cancelUnsentMail,
  enqueueMail,
  failingMail,
  outboxState,
  type OutboxState,
  safeHeader,
  toClient,
  type OutgoingMail,
} from './outbox';
export { MailRelay, RELAY_JOB } from './relay';
export { fileTransport, smtpTransport, type MailTransport } from './transports';
export { mailRoutes } from './routes';
