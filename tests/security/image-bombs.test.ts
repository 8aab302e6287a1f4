// Issue 11, item 2: small crafted photos are refused from their header, and the ones the limits let
// through are decoded a few at a time while the rest of the server keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_CONCURRENCY, imagePoolLoad } from '../../src/server/lib/images';
import { quoteRequests } from '../../src/server/db/schema';
import { dataUrl, makeCraftedPng } from '../helpers/images';
import { routeDbKind } from '../helpers/test-db';
import { createTestApp, type TestApp } from '../helpers/test-app';

const request = (images: string[]) => ({
  contactPerson: { name: 'Crafty Visitor', email: 'crafty@home.test' },
  address: { street: '1 Bomb St', city: 'Sacramento', state: 'CA', zip: '95814' },
  notes: 'See photos',
  images,
});

describe('crafted images', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(routeDbKind);
  });
  afterAll(() => t.close());

  const upload = (png: Buffer, extra: string[] = []) =>
    t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      payload: request([...extra, dataUrl(png, 'image/png')]),
    });
  const stored = async () => (await t.database.db.select().from(quoteRequests)).length;

  it('refuses a 1 × 59,000,000 px PNG of 115 KB from its header, naming the image', async () => {
    const png = makeCraftedPng({ width: 1, height: 59_000_000 });
    expect(png.length).toBeLessThan(200_000);
    const small = dataUrl(makeCraftedPng({ width: 20, height: 20 }), 'image/png');
    const res = await upload(png, [small]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'images.1: image 2 is too large: 1 × 59000000 pixels (at most 40 megapixels and 12,000 pixels a side)',
    );
    expect(await stored()).toBe(0);
  });

  it('refuses more than 12,000 px a side, and more than 40 megapixels', async () => {
    const wide = await upload(makeCraftedPng({ width: 12_001, height: 10 }));
    expect(wide.statusCode).toBe(400);
    expect(wide.json().message).toMatch(/^images\.0: image 1 is too large: 12001 × 10 pixels/);
    const big = await upload(makeCraftedPng({ width: 7000, height: 6000 }));
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toMatch(/^images\.0: image 1 is too large: 7000 × 6000 pixels/);
  });

  it('refuses an interlaced 16-bit PNG that would take 128 MB to decode', async () => {
    const png = makeCraftedPng({ width: 4000, height: 4000, bitDepth: 16, colorType: 6, interlaced: true });
    expect(png.length).toBeLessThan(200_000);
    const res = await upload(png);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^images\.0: image 1 is too large to process/);
  });

  it(`decodes at most ${IMAGE_CONCURRENCY} images at once; the others wait, and every one is stored`, async () => {
    const png = makeCraftedPng({ width: 2000, height: 2000, bitDepth: 16, colorType: 6, interlaced: true });
    let maxActive = 0;
    let maxWaiting = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const load = imagePoolLoad();
        maxActive = Math.max(maxActive, load.active);
        maxWaiting = Math.max(maxWaiting, load.waiting);
        await new Promise((r) => setImmediate(r));
      }
    })();
    const before = await stored();
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(png)));
    sampling = false;
    await sampler;
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(await stored()).toBe(before + 6);
    expect(maxActive).toBe(IMAGE_CONCURRENCY);
    expect(maxWaiting).toBeGreaterThan(0);
  });
});
