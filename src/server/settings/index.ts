// The settings feature's public entry: the store the app provides as `app.settings`, and its routes.
export { SettingsStore, SETTINGS_CACHE_MS } from './service';
export { logoRoutes, settingsRoutes } from './routes';
export { businessContact } from './business-contact';
