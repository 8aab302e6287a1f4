import type { FastifyInstance } from 'fastify';
import { paths, publicIndexablePaths } from '#shared/paths';
import { notFound } from '../lib/http-errors';
import { HERO_WIDTHS, heroSources, renderHero, type HeroWidth } from './hero-images';

/** Files of the public site that are not the React app: hero photos, robots.txt, sitemap.xml. */
export async function siteRoutes(app: FastifyInstance) {
  const config = app.config;

  app.get<{ Params: { file: string } }>('/media/hero/:file', async (request, reply) => {
    const match = /^(\d)-(\d+)\.(webp|jpg)$/.exec(request.params.file);
    const width = Number(match?.[2]) as HeroWidth;
    const source = match ? heroSources(config.HERO_IMAGES_DIR)[Number(match[1]) - 1] : undefined;
    if (!match || !source || !HERO_WIDTHS.includes(width)) throw notFound('No such image');
    const image = await renderHero(source, width, match[3] === 'webp' ? 'webp' : 'jpeg');
    return reply
      .type(match[3] === 'webp' ? 'image/webp' : 'image/jpeg')
      .header('cache-control', 'public, max-age=86400, stale-while-revalidate=604800')
      .send(image);
  });

  // The crew app's manifest (decision 030): installable from the crew's pages, in the business's name.
  app.get(paths.crewApp.manifest, async (_request, reply) => {
    const business = await app.settings.current();
    const manifest = {
      name: `${business.name} crew`,
      short_name: 'Crew',
      description: 'My work, my jobs and their records, with or without signal.',
      id: paths.crewApp.scope,
      start_url: paths.employee.root,
      scope: paths.crewApp.scope,
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#1c3d5a',
      icons: [
        { src: '/crew-icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/crew-icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    };
    // Read again on each visit: a new name in Settings reaches the installed app.
    return reply.type('application/manifest+json').header('cache-control', 'no-cache').send(JSON.stringify(manifest));
  });

  app.get('/robots.txt', async (_request, reply) => {
    const lines = [
      'User-agent: *',
      'Disallow: /admin',
      'Disallow: /employee',
      'Disallow: /api/',
      'Disallow: /quote/',
      'Allow: /',
      '',
      `Sitemap: ${config.PUBLIC_URL}/sitemap.xml`,
      '',
    ];
    return reply.type('text/plain; charset=utf-8').send(lines.join('\n'));
  });

  app.get('/sitemap.xml', async (_request, reply) => {
    const urls = publicIndexablePaths.map(
      (p) =>
        `  <url><loc>${config.PUBLIC_URL}${p}</loc><changefreq>monthly</changefreq><priority>${p === '/' ? '1.0' : '0.8'}</priority></url>`,
    );
    return reply
      .type('application/xml; charset=utf-8')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
      );
  });
}
