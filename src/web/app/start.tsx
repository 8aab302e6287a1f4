/** Starts the app: hydrates the page the server rendered, or renders it when the server sent none. */
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { Providers } from './providers';
import { routes } from './router';

const container = document.getElementById('root')!;
const app = (router: ReturnType<typeof createBrowserRouter>) => (
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>
);

if (container.firstElementChild) {
  // The server sent this page rendered (render-page.tsx). Load the page's lazy route modules first,
  // so the first client render is the same tree and React adopts the HTML instead of replacing it.
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, { ...(await route.lazy()), lazy: undefined });
    }),
  );
  const router = createBrowserRouter(routes);
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the
  // main thread (and a tap on the page) until the whole page is done.
  startTransition(() => {
    hydrateRoot(container, app(router));
  });
} else {
  createRoot(container).render(app(createBrowserRouter(routes)));
}
