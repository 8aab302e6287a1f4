import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dataUrl, makeJpeg } from '../helpers/images';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';

/** Pages the stand-in renderers rendered, as "<build dir> <path>". */
const rendered = () => (globalThis as { renderedPages?: string[] }).renderedPages ?? [];

/**
 * A stand-in for the build: dist/web (page, manifest) and dist/render, whose renderer writes a
 * heading with the business name, fails for the contact page and records what it renders.
 */
function fakeBuild(): { buildDir: string; webRoot: string } {
  const buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-build-'));
  const webRoot = path.join(buildDir, 'web');
  fs.mkdirSync(path.join(webRoot, '.vite'), { recursive: true });
  fs.writeFileSync(
    path.join(webRoot, 'index.html'),
    '<!doctype html><html><head><!--app-head--><script type="module" crossorigin fetchpriority="low" src="/assets/index-9.js"></script><link rel="stylesheet" href="/assets/index-9.css"></head><body><div id="root"><!--app-html--></div></body></html>',
  );
  const manifest = {
    'app/start.tsx': { file: 'assets/start-1.js', css: ['assets/start-1.css'], imports: ['_zod-1.js'] },
    'features/contact/pages/contact-page.tsx': {
      file: 'assets/contact-page-abc.js',
      css: ['assets/contact-page-abc.css'],
      imports: ['_zod-1.js', 'index.html'],
    },
    '_zod-1.js': { file: 'assets/zod-1.js', css: ['assets/shared-1.css'] },
    'index.html': { file: 'assets/index-9.js', imports: ['_zod-1.js'], isEntry: true },
  };
  fs.writeFileSync(path.join(webRoot, '.vite/manifest.json'), JSON.stringify(manifest));
  // The stylesheets a public page's first paint takes its rules from (critical-css.ts).
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(
    path.join(webRoot, 'assets/index-9.css'),
    [
      'h1{color:rgb(1,2,3);font-size:var(--theme-size);background:var(--theme-light)}',
      '.menu-opened-later{color:blue}',
      ':focus-visible{outline:3px solid red}',
      ':root,:host{--theme-size:16px;--theme-unused-size:99px}',
      ':root[data-mantine-color-scheme=light],:host([data-mantine-color-scheme=light]){--theme-light:var(--theme-white);--theme-white:#fff;--theme-unused-colour:red}',
      ':root[data-mantine-color-scheme=dark],:host([data-mantine-color-scheme=dark]){--theme-dark:#000}',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(webRoot, 'assets/start-1.css'), 'h1{margin:0}.toast-shown-later{top:0}');
  fs.writeFileSync(path.join(webRoot, 'assets/shared-1.css'), '.unused{color:red}');
  fs.mkdirSync(path.join(buildDir, 'render'));
  fs.writeFileSync(
    path.join(buildDir, 'render/render-page.js'),
    `export async function renderPage(pathname, site) {
      (globalThis.renderedPages ??= []).push(${JSON.stringify(buildDir)} + ' ' + pathname);
      if (pathname === '/contact') throw new Error('cannot render');
      return '<h1>' + site.businessName.replace(/</g, '&lt;').replace(/>/g, '&gt;') + ' $& ' + pathname + '</h1>';
    }
    export async function renderPageWithData(url, site, fetchApi) {
      if (url.includes('write')) await fetchApi('/api/quoterequest/create', { method: 'POST' });
      const answer = await fetchApi('/api/quoterequest/status/QT00000000');
      const html = '<h1>' + url.replace(/</g, '&lt;') + ' read ' + answer.status + '</h1>';
      return { html, data: { queries: [{ said: '</script><b>' + (await answer.json()).code }] } };
    }`,
  );
  return { buildDir, webRoot };
}

describe('search engines and link previews', () => {
  let t: TestApp;
  let buildDir: string;
  beforeAll(async () => {
    const build = fakeBuild();
    buildDir = build.buildDir;
    t = await createTestApp('pglite', {
      webRoot: build.webRoot,
      env: { BUSINESS_NAME: 'Fix-It <Sac>', BUSINESS_PHONE: '(916) 555-0199' },
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(buildDir, { recursive: true, force: true });
  });

  const page = (url: string) => t.app.inject({ method: 'GET', url });

  it('gives each page its own title, description, canonical link and Open Graph tags', async () => {
    const home = (await page('/')).body;
    expect(home).toContain('<title>Fix-It &lt;Sac&gt; — Handyman in Sacramento</title>');
    expect(home).toContain('<link rel="canonical" href="http://handyman.test/">');
    expect(home).toContain('<meta property="og:image" content="http://handyman.test/media/hero/1-1280.jpg">');
    expect(home).toContain('rel="preload" as="image"');
    const quote = (await page('/get-a-quote')).body;
    expect(quote).toContain('<title>Get a Quote | Fix-It &lt;Sac&gt;</title>');
    expect(quote).toMatch(/<meta name="description" content="Tell us about your repair/);
    expect(quote).not.toContain('rel="preload" as="image"');
    const admin = (await page('/admin/users')).body;
    expect(admin).toContain('<meta name="robots" content="noindex">');
    expect(admin).not.toContain('rel="canonical"');
  });

  it("links the stylesheets of the app's and the page's chunks after the entry's, lists their scripts for the entry to load after the first paint, and keeps the build manifest private", async () => {
    const contact = (await page('/contact')).body;
    const links = [...contact.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual([
      'assets/index-9.css',
      'assets/start-1.css',
      'assets/shared-1.css',
      'assets/contact-page-abc.css',
    ]);
    // Not fetched with the page, so that they do not compete with its first paint (main.tsx asks for them).
    expect(contact).not.toContain('modulepreload');
    const appChunks = (html: string) =>
      JSON.parse(
        /<script type="application\/json" id="app-chunks">(.*?)<\/script>/.exec(html)?.[1] ?? 'null',
      ) as unknown;
    expect(appChunks(contact)).toEqual(['assets/start-1.js', 'assets/zod-1.js', 'assets/contact-page-abc.js']);
    // A form: the app takes it over when the visitor first reaches for it (decision 051).
    expect(contact).toContain('<meta name="app" content="on-first-use">');
    const status = (await page('/quote-request-status')).body;
    expect(appChunks(status)).toEqual(['assets/start-1.js', 'assets/zod-1.js']);
    expect(status).toContain('<meta name="app" content="on-first-use">');
    // A page the app draws (sign-in) or takes over at once says nothing of the kind.
    expect((await page('/login')).body).not.toContain('<meta name="app"');
    // The home page is whole as the server sends it: it names none of the app's chunks, and says the
    // entry is not to load the app (decision 050). Its stylesheets still give its first paint's rules.
    const home = (await page('/')).body;
    expect(home).toContain('assets/start-1.css');
    expect(home).not.toContain('contact-page-abc');
    expect(appChunks(home)).toBeNull();
    expect(home).not.toContain('assets/start-1.js');
    expect(home).toContain('<meta name="app" content="none">');
    expect((await page('/.vite/manifest.json')).headers['content-type']).toContain('text/html');
  });

  it("puts the rules a rendered public page's first paint needs into it, and names its stylesheets for the app to link (issue 34)", async () => {
    const home = (await page('/')).body;
    const head = home.slice(0, home.indexOf('</head>'));
    expect(head).not.toContain('rel="stylesheet"');
    const rules = /<style>([^<]*)<\/style>/.exec(head)?.[1] ?? '';
    expect(rules).toContain('h1{color:rgb(1,2,3);font-size:var(--theme-size);background:var(--theme-light)}');
    expect(rules).toContain('margin:0');
    expect(rules).toContain('--theme-size:16px');
    // The theme's variables the page uses, and those they use in turn; no other (issue 34).
    expect(rules).toContain('--theme-light:var(--theme-white)');
    expect(rules).toContain('--theme-white:#fff');
    expect(rules).not.toContain('--theme-unused');
    // The focus ring matches no element of its own, and a keyboard user needs it before any stylesheet.
    expect(rules).toContain(':focus-visible{outline:3px solid red}');
    // What the server did not render waits for the stylesheets, and the dark scheme is not the pages'.
    for (const unused of ['menu-opened-later', 'toast-shown-later', '.unused', '--theme-dark'])
      expect(rules).not.toContain(unused);
    // Named for the entry to link once the page is painted (main.tsx), not fetched before it.
    expect(home).not.toContain('rel="stylesheet"');
    expect(
      JSON.parse(/<script type="application\/json" id="app-styles">(.*?)<\/script>/.exec(head)?.[1] ?? 'null'),
    ).toEqual(['/assets/index-9.css', '/assets/start-1.css', '/assets/shared-1.css']);
    // The same rules for the same page every time; a page the server could not render keeps its
    // stylesheets in <head>, as the back office does.
    expect((await page('/?utm=x')).body).toContain(`<style>${rules}</style>`);
    // A client's own page, rendered for them with their data, carries its first paint's rules too
    // (decision 052, session 40), and names the same stylesheets.
    const own = (await page('/quote/QT12345678?token=abc')).body;
    const ownHead = own.slice(0, own.indexOf('</head>'));
    expect(ownHead).not.toContain('rel="stylesheet"');
    expect(ownHead).toMatch(/<style>[^<]*h1\{color:rgb\(1,2,3\)/);
    expect(ownHead).toContain('<script type="application/json" id="app-styles">["/assets/index-9.css"');
    for (const url of ['/contact', '/admin/users']) {
      const other = (await page(url)).body;
      expect(other.slice(0, other.indexOf('</head>'))).toContain('<link rel="stylesheet" href="/assets/index-9.css">');
      expect(other).not.toContain('<style>');
    }
  });

  it("asks for a rendered public page's entry once it has loaded, by the one inline script the policy allows (decision 052)", async () => {
    const entryTag = '<script type="module" crossorigin fetchpriority="low" src="/assets/index-9.js"></script>';
    for (const url of ['/', '/get-a-quote', '/quote/QT12345678?token=abc']) {
      const res = await page(url);
      expect(res.body, url).not.toContain(entryTag);
      expect(res.body, url).toContain('<meta name="app-entry" content="/assets/index-9.js">');
      const inline = [...res.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(inline, url).toHaveLength(1);
      expect(inline[0]).toContain("addEventListener('load'");
      // The policy names that script's hash, and no other way for an inline script to run.
      const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
      const hash = createHash('sha256').update(inline[0]!).digest('base64');
      expect(scriptSrc).toBe(`'self' 'sha256-${hash}'`);
    }
    // A page the server could not render and the back office load theirs as built.
    for (const url of ['/contact', '/admin/users']) {
      const other = (await page(url)).body;
      expect(other, url).toContain(entryTag);
      expect(other, url).not.toContain('app-entry');
    }
  });

  it('sends a public page compressed once at brotli’s best to a browser that takes it, and as it is otherwise', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/get-a-quote' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const asked = () =>
      t.app.inject({ method: 'GET', url: '/get-a-quote', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    const first = await asked();
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(first.rawPayload).toString('utf8')).toBe(plain.body);
    // Brotli's best quality, not the quality of the answers compressed on the way out (4).
    const atFour = brotliCompressSync(plain.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(first.rawPayload.length).toBeLessThan(atFour.length);
    expect((await asked()).rawPayload.equals(first.rawPayload)).toBe(true);
    // Under another spelling it is compressed on the way out, as any answer: a stranger cannot make the
    // server compress it again at brotli's slow best by asking for /Get-A-Quote/, /GET-a-quote/, …
    const spelled = await t.app.inject({ method: 'GET', url: '/Get-A-Quote/', headers: { 'accept-encoding': 'br' } });
    expect(spelled.headers['content-encoding']).toBe('br');
    const spelledPage = brotliDecompressSync(spelled.rawPayload);
    expect(spelledPage.toString('utf8')).toContain('/Get-A-Quote');
    expect(spelled.rawPayload.length).toBeGreaterThan(
      brotliCompressSync(spelledPage, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    );
    // A browser without brotli is given gzip, compressed on the way out.
    const gzip = await t.app.inject({ method: 'GET', url: '/get-a-quote', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('sends the pages search engines index rendered, with the configured details, rendering each once', async () => {
    const urls = ['/', '/?utm=x', '/get-a-quote', '/Get-A-Quote/'];
    for (const url of urls) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      const route = url.toLowerCase().startsWith('/get-a-quote') ? '/get-a-quote' : '/';
      // Replacement patterns ("$&") in the rendered HTML are taken literally.
      expect(res.body).toContain(`<div id="root"><h1>Fix-It &lt;Sac&gt; $& ${route}</h1></div>`);
    }
    for (const url of urls) await page(url);
    const mine = rendered().filter((entry) => entry.startsWith(`${buildDir} `));
    expect(mine.filter((entry) => entry.endsWith(' /'))).toHaveLength(1);
    expect(mine.filter((entry) => entry.endsWith(' /get-a-quote'))).toHaveLength(1);
    // Staff, one-off and unknown pages are left to the browser.
    for (const url of ['/admin/users', '/quote/accepted', '/no/such/page'])
      expect((await page(url)).body, url).toContain('<div id="root"></div>');
  });

  it("sends a client's own pages rendered for each request with their data, read through the API, kept out of caches (issue 24.12)", async () => {
    for (const url of ['/quote/QT12345678?token=abc', '/invoice/inv-1?token=abc', '/quote-request-status/QT12345678']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
      // The renderer read the status API in-process (its 404 for an unknown number).
      expect(res.body, url).toContain(`<div id="root"><h1>${url} read 404</h1></div>`);
      // The answers, for the browser's first render, cannot close their <script>.
      const data = /<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(res.body)?.[1];
      expect(data, url).toBeDefined();
      expect(JSON.parse(data!)).toEqual({ queries: [{ said: '</script><b>NOT_FOUND' }] });
    }
    expect((await page('/invoice/inv-1')).body).toContain('<title>Your Invoice | Fix-It &lt;Sac&gt;</title>');
    // Rendering a page never writes: a renderer that tries is refused, and the browser renders the page.
    const refused = await page('/quote/QT12345678?token=write');
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain('<div id="root"></div>');
    expect(refused.body).not.toContain('id="page-data"');
  });

  it('renders the pages again on a new day where the business is (the date picker starts at today)', async () => {
    const count = () => rendered().filter((entry) => entry === `${buildDir} /get-a-quote`).length;
    await page('/get-a-quote');
    const before = count();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 86_400_000 });
    try {
      await page('/get-a-quote');
      await page('/get-a-quote');
      expect(count()).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends the page for the browser to render when rendering fails', async () => {
    const res = await page('/contact');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).toContain('<title>Contact | Fix-It &lt;Sac&gt;</title>');
  });

  it('compresses pages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toContain('<h1>Fix-It &lt;Sac&gt;');
  });

  it('describes the business as schema.org JSON-LD from the configuration, safely escaped', async () => {
    const html = (await page('/')).body;
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1];
    expect(json).toBeDefined();
    expect(json).not.toContain('<Sac>');
    const data = JSON.parse(json!);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      name: 'Fix-It <Sac>',
      telephone: '(916) 555-0199',
      email: t.config.BUSINESS_EMAIL,
    });
    expect(data.areaServed.map((a: { name: string }) => a.name)).toContain('Sacramento');
    const site = JSON.parse(/<script type="application\/json" id="site-config">(.*?)<\/script>/.exec(html)![1]!);
    expect(site).toMatchObject({
      businessName: 'Fix-It <Sac>',
      businessPhone: '(916) 555-0199',
      heroImages: ['/media/hero/1', '/media/hero/2', '/media/hero/3', '/media/hero/4', '/media/hero/5'],
    });
  });

  it('serves robots.txt and a sitemap of the public pages', async () => {
    const robots = await page('/robots.txt');
    expect(robots.headers['content-type']).toContain('text/plain');
    expect(robots.body).toContain('Disallow: /admin');
    expect(robots.body).toContain('Sitemap: http://handyman.test/sitemap.xml');
    const sitemap = await page('/sitemap.xml');
    expect(sitemap.headers['content-type']).toContain('application/xml');
    for (const p of ['/', '/get-a-quote', '/contact', '/quote-request-status'])
      expect(sitemap.body).toContain(`<loc>http://handyman.test${p}</loc>`);
    expect(sitemap.body).not.toContain('/admin');
  });

  it('serves five hero images sized for the screen, each well under 200 KB', async () => {
    for (let n = 1; n <= 5; n++) {
      for (const width of [640, 1280, 1920]) {
        const res = await page(`/media/hero/${n}-${width}.webp`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/webp');
        expect(res.rawPayload.length).toBeLessThan(200 * 1024);
        expect((await sharp(res.rawPayload).metadata()).width).toBe(width);
      }
    }
    expect((await page('/media/hero/6-640.webp')).statusCode).toBe(404);
    expect((await page('/media/hero/1-333.webp')).statusCode).toBe(404);
    expect((await page('/media/hero/..%2F..%2Fpackage.json')).statusCode).toBe(404);
  });

  it('shows a change made on the Settings page on the next page, without a restart (issue 12.4)', async () => {
    const { token } = await createUserAndSignIn(t, 'admin');
    const current = (await t.app.inject({ method: 'GET', url: '/api/settings', headers: bearer(token) })).json();
    const { logoUrl: _logo, updatedAt: _at, ...values } = current;
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(token),
      payload: {
        ...values,
        businessName: 'Delta Fix & Paint',
        businessPhone: '(530) 555-0111',
        businessAddress: '100 J St, Sacramento, CA 95814',
        serviceAreaHeadline: 'Davis, Woodland and the Delta',
        serviceArea: ['Davis', 'Yolo County', '95616'],
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const logo = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/logo',
      headers: bearer(token),
      payload: { image: dataUrl(await makeJpeg({ width: 400, height: 100 })) },
    });
    const { logoUrl } = logo.json();

    const html = (await page('/')).body;
    expect(html).toContain('<title>Delta Fix &amp; Paint — Handyman in Sacramento</title>');
    expect(html).toContain('<div id="root"><h1>Delta Fix & Paint $& /</h1></div>');
    const data = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!);
    expect(data).toMatchObject({
      name: 'Delta Fix & Paint',
      telephone: '(530) 555-0111',
      logo: `http://handyman.test${logoUrl}`,
      address: { '@type': 'PostalAddress', streetAddress: '100 J St, Sacramento, CA 95814' },
      areaServed: [
        { '@type': 'City', name: 'Davis' },
        { '@type': 'AdministrativeArea', name: 'Yolo County' },
        { '@type': 'PostalCodeSpecification', postalCodeBegin: '95616' },
      ],
    });
    const site = JSON.parse(/<script type="application\/json" id="site-config">(.*?)<\/script>/.exec(html)![1]!);
    expect(site).toMatchObject({
      businessName: 'Delta Fix & Paint',
      serviceAreaHeadline: 'Davis, Woodland and the Delta',
      logoUrl,
    });
  });
});

describe('hero photos of the business', () => {
  it('come from HERO_IMAGES_DIR when it holds photos, picked up without a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-hero-'));
    const t = await createTestApp('pglite', { env: { HERO_IMAGES_DIR: dir } });
    const bundled = (await t.app.inject({ method: 'GET', url: '/media/hero/1-640.webp' })).rawPayload;
    fs.writeFileSync(path.join(dir, 'a-porch.jpg'), await makeJpeg({ width: 4000, height: 3000 }));
    const own = await t.app.inject({ method: 'GET', url: '/media/hero/1-640.webp' });
    expect(own.statusCode).toBe(200);
    expect(Buffer.compare(own.rawPayload, bundled)).not.toBe(0);
    expect(await sharp(own.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 640, height: 360 });
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('pages rendered ahead', () => {
  it('renders the indexed pages once the server listens, before anyone asks for them', async () => {
    const { buildDir, webRoot } = fakeBuild();
    const t = await createTestApp('pglite', { webRoot });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const mine = () =>
        rendered()
          .filter((entry) => entry.startsWith(`${buildDir} `))
          .map((entry) => entry.slice(buildDir.length + 1));
      await expect
        .poll(mine)
        .toEqual(expect.arrayContaining(['/', '/get-a-quote', '/contact', '/quote-request-status']));
      expect(mine()).toHaveLength(4);
    } finally {
      await t.close();
      fs.rmSync(buildDir, { recursive: true, force: true });
    }
  });
});
