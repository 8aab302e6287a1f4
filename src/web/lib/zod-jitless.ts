/** zod's configuration object, which it takes from `globalThis` when it loads (zod/v4/core/core.js). */
interface ZodScope {
  __zod_globalConfig?: Record<string, unknown>;
}

/**
 * Called by the entry (main.tsx) before the app loads, so before any module builds a schema: zod then
 * never compiles validators with `new Function`. The CSP allows no eval, and zod's probe for it (made
 * when the first object schema is built, caught but still reported) counted as a CSP violation on
 * every page. Set on the configuration object zod adopts from `globalThis` (it makes one only when
 * none is there), so zod itself is not loaded for it: the home page builds no schema and downloads no
 * zod. tests/unit/zod-jitless.test.ts holds zod to it. Browser only: the server has no such CSP and
 * keeps zod's faster compiled parsing.
 */
export function makeZodJitless(scope: ZodScope = globalThis as ZodScope): void {
  scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
}
