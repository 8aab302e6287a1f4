import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PRICE_BOOK_ITEMS, type PriceBookItem } from '#shared/schemas/price-book';
import { priceBookItems } from '../../src/server/db/schema';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

describe.each(dbKinds)('the price book (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const fan = {
    kind: 'service',
    name: 'Install a ceiling fan',
    description: 'Fan supplied by the client; existing box',
    unit: 'each',
    unitPrice: 149.5,
    taxable: false,
  };

  it('keeps services and materials with their unit, price in cents and tax, and finds them by a word', async () => {
    const created = await send('POST', '/api/price-book', fan);
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json<PriceBookItem>();
    expect(item).toMatchObject({ ...fan, _id: expect.any(String) });
    const [row] = await t.database.db.select().from(priceBookItems);
    expect(row).toMatchObject({ unitPriceCents: 14950, taxable: false, unit: 'each' });

    const hour = { kind: 'service', name: 'Handyman labor', unit: 'hour', unitPrice: 85, taxable: false };
    const hinge = { kind: 'material', name: 'Gate hinge', unit: 'each', unitPrice: 12.5, taxable: true };
    expect((await send('POST', '/api/price-book', hour)).statusCode).toBe(201);
    expect((await send('POST', '/api/price-book', hinge)).statusCode).toBe(201);

    // Name or description, any case; "%" is a letter, not a wildcard.
    const byWord = (await send('GET', '/api/price-book?search=BOX')).json();
    expect(byWord.items.map((i: PriceBookItem) => i.name)).toEqual(['Install a ceiling fan']);
    const inAnyOrder = (await send('GET', '/api/price-book?search=fan%20INSTALL')).json();
    expect(inAnyOrder.items.map((i: PriceBookItem) => i.name)).toEqual(['Install a ceiling fan']);
    expect((await send('GET', '/api/price-book?search=fan%20hinge')).json().total).toBe(0);
    expect((await send('GET', '/api/price-book?search=%25')).json().total).toBe(0);
    const materials = (await send('GET', '/api/price-book?kind=material')).json();
    expect(materials.items.map((i: PriceBookItem) => i.name)).toEqual(['Gate hinge']);
    const all = (await send('GET', '/api/price-book')).json();
    expect(all.items.map((i: PriceBookItem) => i.name)).toEqual([
      'Gate hinge',
      'Handyman labor',
      'Install a ceiling fan',
    ]);

    const changed = await send('PUT', `/api/price-book/${item._id}`, { ...fan, unitPrice: 165 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().unitPrice).toBe(165);
    expect((await send('DELETE', `/api/price-book/${item._id}`)).statusCode).toBe(200);
    expect((await send('DELETE', `/api/price-book/${item._id}`)).statusCode).toBe(404);
    expect((await send('PUT', `/api/price-book/${item._id}`, fan)).statusCode).toBe(404);
  });

  it('refuses a second entry of the same name and kind, whatever its case, and bounds every field', async () => {
    const name = `Deck screws ${randomUUID().slice(0, 6)}`;
    const screws = { kind: 'material', name, unit: 'box', unitPrice: 9.99, taxable: true };
    expect((await send('POST', '/api/price-book', screws)).statusCode).toBe(201);
    const again = await send('POST', '/api/price-book', { ...screws, name: name.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`The price book already has a material named "${name.toUpperCase()}"`);
    // The same name as a service is another entry.
    expect((await send('POST', '/api/price-book', { ...screws, kind: 'service' })).statusCode).toBe(201);

    const cases: [object, string][] = [
      [{ name: '' }, 'Name is required'],
      [{ name: 'x'.repeat(201) }, 'Name must be at most 200 characters'],
      [{ description: 'x'.repeat(1001) }, 'Description must be at most 1000 characters'],
      [{ unit: '' }, 'Unit is required'],
      [{ unit: 'x'.repeat(31) }, 'Unit must be at most 30 characters'],
      [{ unitPrice: -1 }, 'Price cannot be negative'],
      [{ unitPrice: 1.005 }, 'Price can have at most 2 decimals'],
      [{ unitPrice: 1_000_001 }, 'Price must be at most 1,000,000'],
      [{ kind: 'tool' }, 'Choose a service or a material'],
    ];
    for (const [change, message] of cases) {
      const res = await send('POST', '/api/price-book', { ...screws, name: `Other ${randomUUID()}`, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect((await send('GET', `/api/price-book?search=${'x'.repeat(101)}`)).statusCode).toBe(400);
    expect((await send('GET', `/api/price-book?limit=${MAX_PRICE_BOOK_ITEMS + 1}`)).statusCode).toBe(400);
  });

  it(`holds at most ${MAX_PRICE_BOOK_ITEMS} entries, even when two are added at once`, async () => {
    await t.database.db.delete(priceBookItems);
    const rows = Array.from({ length: MAX_PRICE_BOOK_ITEMS - 1 }, (_, i) => ({
      id: `fill${String(i).padStart(20, '0')}`,
      kind: 'material' as const,
      name: `Filler ${i}`,
      unit: 'each',
      unitPriceCents: 100,
      taxable: true,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await t.database.db.insert(priceBookItems).values(rows.slice(i, i + 200));
    const add = (name: string) => send('POST', '/api/price-book', { ...fan, name });
    const answers = await Promise.all([add('Last one A'), add('Last one B')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const refused = answers.find((a) => a.statusCode === 409)!;
    expect(refused.json()).toMatchObject({
      code: 'RECORD_LIMIT',
      message: `The price book holds at most ${MAX_PRICE_BOOK_ITEMS} entries`,
    });
    expect((await send('GET', '/api/price-book?limit=1')).json().total).toBe(MAX_PRICE_BOOK_ITEMS);
    await t.database.db.delete(priceBookItems);
  });
});
