import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPlaces } from '../../src/server/exports/json';

/**
 * The full exports' places (decision 028, session 50), held by real responses: given back when a response
 * closes, and never taken by one whose client left before its download began (its 'close' has been).
 */
describe('the full exports downloading at once', () => {
  const places = exportPlaces(2);
  /** What each request was answered, in the order they came; responses held open until the test ends them. */
  const held: http.ServerResponse[] = [];
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      void (async () => {
        // A client that leaves before its download begins (as one gone while it was being signed in).
        if (req.url === '/gone') await once(req.socket, 'close');
        const placed = places.holdFor(res);
        if (req.url === '/gone') return;
        if (!placed) return void res.writeHead(503).end();
        held.push(res);
        res.writeHead(200).write('{');
      })();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  /** A download's answer status; its connection kept open while the server holds it. */
  const ask = (path = '/') =>
    new Promise<number>((resolve, reject) =>
      http.get(`${base}${path}`, (res) => resolve(res.statusCode!)).on('error', reject),
    );

  it('holds two, refuses a third, and lets the next in once one closes', async () => {
    expect(await ask()).toBe(200);
    expect(await ask()).toBe(200);
    expect(await ask()).toBe(503);
    held.shift()!.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(await ask()).toBe(200);
    expect(await ask()).toBe(503);
    for (const res of held.splice(0)) res.end();
    await new Promise((r) => setTimeout(r, 50));
  });

  it('takes no place for a response whose client left before it began', async () => {
    for (let i = 0; i < 3; i++) {
      const request = http.get(`${base}/gone`);
      request.on('error', () => {});
      await once(request, 'socket');
      await new Promise((r) => setTimeout(r, 20));
      request.destroy();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await ask()).toBe(200);
    expect(await ask()).toBe(200);
    expect(await ask()).toBe(503);
    for (const res of held.splice(0)) res.end();
  });
});
