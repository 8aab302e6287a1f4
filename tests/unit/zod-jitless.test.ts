import { expect, it } from 'vitest';
import { makeZodJitless } from '../../src/web/lib/zod-jitless';

// The browser sets zod's jitless flag before zod loads, on the object zod adopts from globalThis
// (src/web/lib/zod-jitless.ts): a zod that stopped adopting it would compile validators with
// `new Function` again, which the pages' CSP refuses.
it('zod loaded after makeZodJitless does not compile validators', async () => {
  expect((globalThis as { __zod_globalConfig?: unknown }).__zod_globalConfig).toBeUndefined();
  makeZodJitless();
  const { z } = await import('zod');
  expect(z.config().jitless).toBe(true);
  const schema = z.object({ name: z.string(), cents: z.number().int() });
  expect(schema.parse({ name: 'Deck boards', cents: 1250 })).toEqual({ name: 'Deck boards', cents: 1250 });
});
