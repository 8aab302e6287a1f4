// The contact feature's public entry.
export { contactRoutes } from './routes';
