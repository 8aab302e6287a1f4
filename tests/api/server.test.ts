import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

describe.each(dbKinds)('server basics (%s)', (kind) => {
  let t: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    // A small stand-in for the Vite build: an index page and one hashed asset.
    webRoot = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'hm-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(
      path.join(webRoot, 'index.html'),
      '<!doctype html><html><head><!--app-head--></head><body><div id="root"></div></body></html>',
    );
    fs.writeFileSync(
      path.join(webRoot, 'assets', 'app-abc123.js'),
      `console.log(${JSON.stringify('x'.repeat(5000))});`,
    );
    // And one the build compressed ahead (scripts/build.mjs): its .br and .gz beside it.
    const script = `console.log(${JSON.stringify('precompressed '.repeat(500))});`;
    fs.writeFileSync(path.join(webRoot, 'assets', 'pre-def456.js'), script);
    fs.writeFileSync(path.join(webRoot, 'assets', 'pre-def456.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(webRoot, 'assets', 'pre-def456.js.gz'), zlib.gzipSync(script));
    fs.writeFileSync(path.join(webRoot, 'robots-extra.txt'), 'hello');
    t = await createTestApp(kind, { webRoot });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('reports the database state at /api/health', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'up', databaseKind: kind });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET:/api/no-such-thing not found',
      code: 'NOT_FOUND',
    });
    const post = await t.app.inject({ method: 'POST', url: '/api/nothing', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('serves the web app for any page path, with a fresh index each time', async () => {
    for (const [url, status] of [
      ['/', 200],
      ['/get-a-quote', 200],
      ['/admin/quote-requests/123', 200],
      ['/Login', 200],
      ['/no/such/page', 404],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThan(1000);
  });

  it('sends the build’s brotli or gzip file of an asset as it is, and the plain file to a browser that takes neither', async () => {
    const file = (name: string) => fs.readFileSync(path.join(webRoot, 'assets', name));
    for (const [accept, encoding, bytes] of [
      ['br, gzip', 'br', file('pre-def456.js.br')],
      ['gzip', 'gzip', file('pre-def456.js.gz')],
      ['identity', undefined, file('pre-def456.js')],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/assets/pre-def456.js',
        headers: { 'accept-encoding': accept },
      });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-type'], accept).toContain('javascript');
      expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(res.rawPayload.equals(bytes), accept).toBe(true);
    }
  });

  it('sends security headers on pages and API, with a CSP that allows no inline script', async () => {
    for (const url of ['/', '/api/docs/', '/api/health']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(url === '/api/health' ? /default-src 'none'/ : /script-src 'self'/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it('keeps API answers out of caches and out of frames', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('publishes OpenAPI generated from the route schemas at /api/docs', async () => {
    const spec = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
    const doc = spec.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/login'].post.requestBody.content['application/json'].schema.required).toEqual([
      'username',
      'password',
    ]);
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});

describe('no web build', () => {
  it('says how to build instead of failing', async () => {
    const t = await createTestApp('pglite');
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    await t.close();
  });
});
