// The site feature's public entry: the public pages, rendered by the server, and the web app's files.
export { siteRoutes } from './routes';
export { registerWeb } from './web';
