// The webhooks feature's public entry (decision 044): features tell it their events; it sends them.
export { emitWebhook } from './outbox';
export { WebhookRelay } from './relay';
export { webhookRoutes } from './routes';
export { verifySignature, signatureHeader, SIGNATURE_HEADER } from './signing';
