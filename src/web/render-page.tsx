/**
 * The server's page renderer (built by Vite into dist/render): the public pages' HTML, so a phone
 * paints the page before the scripts arrive, which then hydrate it (main.tsx).
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { MantineProvider } from '@mantine/core';
import type { SiteConfig } from '../shared/business';
import { Providers } from './app/providers';
import { routes } from './app/router';
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
