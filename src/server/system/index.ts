// The system feature's public entry: the System page and the owner's daily e-mail of its red lines.
export { systemRoutes } from './routes';
export { alertIfRed, ALERT_JOB, startSystemAlerts, systemFacts } from './service';
