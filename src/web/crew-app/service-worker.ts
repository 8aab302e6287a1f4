/// <reference lib="webworker" />
// The crew app's service worker (decision 030), built by scripts/build.mjs: esbuild bundles it, then
// Workbox's injectManifest writes the list of the crew area's files into `self.__WB_MANIFEST`.
// It controls the crew's pages only (scope /employee): the public site and the office never meet it.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { paths } from '#shared/paths';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/** Every crew page is the same HTML (the app routes in the browser): one copy, the newest seen. */
const SHELL = new URL(paths.employee.root, self.location.origin).href;
const PAGES = 'crew-pages';

// A new version takes over at once, in every open tab, rather than waiting for all of them to close
// (a crew member never closes the app): the page's next navigation and lazy chunk come from it.
void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// The shell is fetched on install, so a reload without signal works even if no page was loaded
// through this worker yet (the first visit loaded before it existed).
self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(PAGES).then(async (cache) => {
      const page = await fetch(SHELL, { credentials: 'same-origin', cache: 'no-store' });
      if (page.ok) await cache.put(SHELL, page);
    }),
  );
});

// Pages from the network while there is one (a deploy is seen at once), the last copy without one.
registerRoute(
  new NavigationRoute(
    new NetworkFirst({
      cacheName: PAGES,
      networkTimeoutSeconds: 4,
      plugins: [{ cacheKeyWillBeUsed: async () => SHELL }],
    }),
    { allowlist: [new RegExp(`^${paths.crewApp.scope}(?:/|$)`)] },
  ),
);
