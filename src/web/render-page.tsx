/**
 * The server's page renderer (built by Vite into dist/render): the public pages' HTML, so a phone
 * paints the page before the scripts arrive, which then hydrate it (main.tsx).
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { SiteConfig } from '../shared/business';
import { Providers } from './app/providers';
import { routes } from './app/router';
import { provideSiteConfig } from './lib/site-config';

const handler = createStaticHandler(routes);

/** The HTML inside #root for one path, rendered with the business's configured details. */
export async function renderPage(pathname: string, config: SiteConfig): Promise<string> {
  provideSiteConfig(config);
  const context = await handler.query(new Request(new URL(pathname, config.publicUrl)));
  if (context instanceof Response) throw new Error(`Rendering ${pathname} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // hydrate={false}: no inline hydration script (the CSP forbids one); no route has a loader.
  return renderToString(
    <StrictMode>
      <Providers>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </Providers>
    </StrictMode>,
  );
}
