/** Starts the app: hydrates the page the server rendered, or renders it when the server sent none. */
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { hydrate, type QueryClient } from '@tanstack/react-query';
import { Providers } from './providers';
import { createQueryClient } from './query-client';
import { routes } from './router';

const container = document.getElementById('root')!;
const app = (router: ReturnType<typeof createBrowserRouter>, queryClient?: QueryClient) => (
  <StrictMode>
    <Providers queryClient={queryClient}>
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
  // A client's page (their quote, invoice, status) came rendered with its data: the same answers
  // make the first render the page the server sent, without asking the API again.
  const pageData = document.getElementById('page-data')?.textContent;
  const queryClient = createQueryClient();
  if (pageData) hydrate(queryClient, JSON.parse(pageData));
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the
  // main thread (and a tap on the page) until the whole page is done.
  startTransition(() => {
    hydrateRoot(container, app(router, queryClient));
  });
} else {
  createRoot(container).render(app(createBrowserRouter(routes)));
}
