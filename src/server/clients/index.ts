// The clients feature's public entry: the people behind requests, matched by e-mail.
export { matchClient, type ClientContact, type PropertyAddress } from './repository';
export { clientRoutes } from './routes';
