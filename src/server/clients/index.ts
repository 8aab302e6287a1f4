// The clients feature's public entry: the people behind requests, matched by e-mail.
export {
  billingOf,
  findClient as clientOf,
  matchClient,
  serviceAddressOf,
  type ClientContact,
  type PropertyAddress,
} from './repository';
export { clientRoutes } from './routes';
