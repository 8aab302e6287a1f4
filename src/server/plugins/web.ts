import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { renderPageHead } from '../site/page-head';
import { body } from './errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Where index.html receives each page's title, description, structured data and site settings. */
const HEAD_MARK = '<!--app-head-->';

/**
 * Serves the built React app: hashed assets cached for a year, every other GET path answered with
 * index.html so the client router takes over; unknown /api paths answer a JSON 404.
 */
export async function registerWeb(app: FastifyInstance, root: string): Promise<void> {
  const indexFile = path.join(root, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      wildcard: false,
      // Directories (and index.html itself) fall through to the page handler below.
      allowedPath: (pathName) => !pathName.endsWith('/') && pathName !== '/index.html' && !pathName.startsWith('/.vite/'),
      setHeaders(reply, filePath) {
        const hashed = filePath.startsWith(path.join(root, 'assets') + path.sep);
        reply.header('cache-control', hashed ? IMMUTABLE : 'public, max-age=3600');
      },
    });
  } else {
    app.log.warn(`No web build in ${root}: run "npm run build" (npm start does it for you).`);
  }
  const indexHtml = built ? fs.readFileSync(indexFile, 'utf8') : undefined;
  if (indexHtml && !indexHtml.includes(HEAD_MARK)) throw new Error(`${indexFile} lacks the ${HEAD_MARK} marker`);

  const preloadsFor = chunkPreloads(root);
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api');
    if (!isPage) return reply.code(404).send(body(404, `Route ${request.method}:${request.url.split('?')[0]} not found`));
    if (!indexHtml) return reply.code(503).type('text/plain').send('The web app has not been built yet. Run "npm run build".');
    const { head, status } = renderPageHead(app.config, request.url.split('?')[0]!, preloadsFor);
    return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml.replace(HEAD_MARK, head));
  });
}

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** From Vite's manifest: a module's chunk and every chunk it imports, as files to preload. */
function chunkPreloads(root: string): (module: string) => string[] {
  const file = path.join(root, '.vite/manifest.json');
  const manifest: Record<string, ManifestChunk> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const cache = new Map<string, string[]>();
  return (module) => {
    let files = cache.get(module);
    if (!files) {
      const seen = new Set<string>();
      const visit = (key: string) => {
        const chunk = manifest[key];
        if (!chunk || seen.has(chunk.file)) return;
        seen.add(chunk.file);
        chunk.imports?.forEach(visit);
      };
      visit(module);
      files = [...seen];
      cache.set(module, files);
    }
    return files;
  };
}
