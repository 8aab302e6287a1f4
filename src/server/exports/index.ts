// The exports feature's public entry: the business's data as CSV files and one complete JSON document.
export { exportRoutes } from './routes';
