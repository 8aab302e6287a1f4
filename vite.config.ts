import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes .vite/chunks.json beside Vite's manifest: each chunk's imports and the modules in it with
 * their size after tree-shaking (before minifying), so the JavaScript budget (scripts/js-budget.ts)
 * can name the module that made a public page grow, and find staff or crew code in one.
 */
function chunkModules(): Plugin {
  return {
    name: 'chunk-modules',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    generateBundle(_options, bundle) {
      const root = path.resolve('src/web');
      const chunks: Record<string, unknown> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks[output.fileName] = {
          imports: output.imports,
          dynamicImports: output.dynamicImports,
          modules: Object.fromEntries(
            Object.entries(output.modules).map(([id, info]) => [
              path.relative(root, id.replace(/\?.*$/, '')),
              info.renderedLength,
            ]),
          ),
        };
      }
      this.emitFile({ type: 'asset', fileName: '.vite/chunks.json', source: JSON.stringify(chunks) });
    },
  };
}

/**
 * The entry's script tag at low priority: it runs once the page is painted (main.tsx), so the browser
 * should fetch it after what the paint needs, and Lighthouse counts a high-priority script as holding
 * the first paint (issue 34).
 */
function entryAfterPaint(): Plugin {
  return {
    name: 'entry-after-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(
          /<script type="module" crossorigin src=/,
          '<script type="module" crossorigin fetchpriority="low" src=',
        ),
    },
  };
}

/**
 * The site's icon written into every page as a data address (it is 311 bytes): a browser asked for
 * /favicon.svg while a phone was painting the page, and on a slow network that request shared the
 * first paint's round trips (issue 34, decision 052). The file stays for the crew app's manifest.
 */
function inlineFavicon(): Plugin {
  return {
    name: 'inline-favicon',
    transformIndexHtml: (html) => {
      const svg = fs.readFileSync(path.resolve('src/web/public/favicon.svg'), 'utf8').trim();
      const href = `data:image/svg+xml,${encodeURIComponent(svg).replace(/'/g, '%27')}`;
      return html.replace('<link rel="icon" href="/favicon.svg"', () => `<link rel="icon" href="${href}"`);
    },
  };
}

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), chunkModules(), entryAfterPaint(), inlineFavicon()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // The server reads it to preload each public page's own chunk with the HTML.
    manifest: true,
    // The page asks for its entry at low priority (entryAfterPaint) and nothing else with it: the
    // entry does nothing before the page is painted, so neither it nor its imports should compete
    // with what the paint needs. The entry (main.tsx) preloads the app itself, every chunk the server lists for the page, a few
    // per task: Vite's loader adding a <link rel="modulepreload"> for each of the app's 46 files in one
    // task held a phone's main thread for about 50 ms after the first paint (issue 34). Every other
    // import keeps Vite's preloading.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostId, hostType }) =>
        hostType === 'html' || /^assets\/index-[\w-]+\.js$/.test(hostId) ? [] : deps,
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/api', '/media', '/robots.txt', '/sitemap.xml'].map((p) => [p, `http://localhost:${process.env.PORT ?? 3000}`]),
    ),
  },
});
