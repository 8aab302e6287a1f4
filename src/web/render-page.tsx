/**
 * The server's page renderer (built by Vite into dist/render): the public pages' HTML, so a phone
 * paints the page before the scripts arrive, which then hydrate it (main.tsx).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { MantineProvider } from '@mantine/core';
import { dehydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import type { SiteConfig } from '#shared/business';
import { Providers } from './app/providers';
import { createQueryClient } from './app/query-client';
import { routes } from './app/router';
import { provideServerFetch } from './lib/api-client';
import { provideSiteConfig } from './lib/site-config';
import { cssVariablesResolver, theme } from './app/theme';

/**
 * The theme's CSS (its colour and size variables, and the hidden-from/visible-from classes), which
 * Mantine would otherwise write as <style> elements inside <body> on every page. The build writes it
 * to a stylesheet linked in <head> (scripts/build.mjs), and the app renders without them.
 */
export function themeCss(): string {
  const html = renderToString(<MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} />);
  return [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
}

const handler = createStaticHandler(routes);

/** One path's app, ready to render (its lazy route modules loaded). */
async function pageFor(url: string, config: SiteConfig) {
  provideSiteConfig(config);
  const context = await handler.query(new Request(new URL(url, config.publicUrl)));
  if (context instanceof Response) throw new Error(`Rendering ${url} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // hydrate={false}: no inline hydration script (the CSP forbids one); no route has a loader.
  return (queryClient?: QueryClient) =>
    renderToString(
      <StrictMode>
        <Providers queryClient={queryClient}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </Providers>
      </StrictMode>,
    );
}

/** The HTML inside #root for one path, rendered with the business's configured details. */
export async function renderPage(pathname: string, config: SiteConfig): Promise<string> {
  return (await pageFor(pathname, config))();
}

/** Each render's way to the API (the server's, in-process, for the visitor's request). */
const apiOfRender = new AsyncLocalStorage<typeof fetch>();
provideServerFetch((input, init) => {
  const fetchApi = apiOfRender.getStore();
  if (!fetchApi) throw new Error('The API is only called while rendering a page with its data');
  return fetchApi(input, init);
});

/**
 * A client's page (their quote, invoice, status) with its data: rendered once to learn which API
 * reads it makes (its queries), those are made through `fetchApi`, then rendered again with the
 * answers. The answers go with the page (`data`, React Query's dehydrated state) so the browser's
 * first render is the same page. A read that failed is rendered as still loading, as the browser
 * renders it before asking again (its error is the browser's to show).
 */
export async function renderPageWithData(
  url: string,
  config: SiteConfig,
  fetchApi: typeof fetch,
): Promise<{ html: string; data: DehydratedState }> {
  const render = await pageFor(url, config);
  const queryClient = createQueryClient();
  return apiOfRender.run(fetchApi, async () => {
    // A page's reads may depend on earlier ones (enabled once they answered): a few rounds at most.
    for (let round = 0; round < 3; round++) {
      render(queryClient);
      const waiting = queryClient
        .getQueryCache()
        .getAll()
        .filter(
          (query) =>
            query.state.status === 'pending' &&
            query.state.fetchStatus === 'idle' &&
            (query.options as { enabled?: unknown }).enabled !== false,
        );
      if (waiting.length === 0) break;
      await Promise.all(
        waiting.map((query) =>
          queryClient.fetchQuery({ ...query.options, queryKey: query.queryKey, retry: false }).catch(() => undefined),
        ),
      );
    }
    queryClient.removeQueries({ predicate: (query) => query.state.status !== 'success' });
    const html = render(queryClient);
    const data = dehydrate(queryClient);
    queryClient.clear();
    return { html, data };
  });
}
