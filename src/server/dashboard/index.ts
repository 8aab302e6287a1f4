// The dashboard feature's public entry.
export { dashboardRoutes } from './routes';
