// The mail feature's public entry: compose an e-mail, put it in the outbox; the relay sends it.
export { composeBlocks, composeEmail, type Block, type PricedRow } from './compose';
export {
  cancelMail,
  cancelUnsentMail,
  enqueueMail,
  failingMail,
  safeHeader,
  toClient,
  type OutgoingMail,
} from './outbox';
export { MailRelay } from './relay';
export { fileTransport, smtpTransport, type MailTransport } from './transports';
export { mailRoutes } from './routes';
