// The clients feature's public entry: the people behind requests, matched by e-mail.
export {
  billingOf,
  clientViews,
  findClient as clientOf,
  matchClient,
  serviceAddressOf,
  type ClientContact,
  type ClientRow,
  type PropertyAddress,
} from './repository';
export { clientRoutes } from './routes';
export { clientPageRoutes } from './page-routes';
export { clientOfPageLink, clientPageBlock, clientPagePath, notePageLinkSent } from './page-link';
