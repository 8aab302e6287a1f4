import { paths } from '#shared/paths';

/**
 * Installs the crew app's service worker (decision 030) from a crew page: it then keeps the crew area's
 * files and pages for a reload without signal. Its scope is the crew area only, so the public site and
 * the office's pages are never served by it. The browser looks for a new version on every crew page
 * load (the file is never taken from the HTTP cache), and a new one takes over at once.
 */
export function registerCrewApp(): void {
  if (import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker
    .register(paths.crewApp.worker, { scope: paths.crewApp.scope, updateViaCache: 'none' })
    .catch(() => undefined); // Without it the crew area works as before, online.
}
