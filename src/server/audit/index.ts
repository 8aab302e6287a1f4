// The audit feature's public entry: the append-only trail of staff actions and the Activity page's route.
export { registerAudit } from './hook';
export { recordAudit, type NewAuditEntry } from './repository';
export { auditRoutes } from './routes';
