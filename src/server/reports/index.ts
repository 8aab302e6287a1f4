// The reports feature's public entry: the owner's figures, read across the other features' tables.
export { reportRoutes } from './routes';
