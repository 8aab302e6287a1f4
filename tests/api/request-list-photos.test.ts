import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuoteRequest } from '../helpers/factories';
import { dataUrl, makePng } from '../helpers/images';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/** Issue 28, item 12: each request of the office's list says how many photos came with it, in the page's one read. */
describe.each(dbKinds)('the request list counts photos (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  it('gives each row its own photo count, with and without a search or a filter', async () => {
    const image = dataUrl(await makePng(60, 40), 'image/png');
    const three = await createQuoteRequest(t, { name: 'Three Photos', images: [image, image, image] });
    const none = await createQuoteRequest(t, { name: 'No Photos' });
    for (const query of ['', '&search=Photos', '&status=Pending']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/quoterequest/all?page=1&limit=10${query}`,
        headers: admin,
      });
      const counts = Object.fromEntries(
        res.json().quoteRequests.map((r: { _id: string; photoCount: number }) => [r._id, r.photoCount]),
      );
      expect(counts, query).toEqual({ [three._id]: 3, [none._id]: 0 });
    }
  });
});
