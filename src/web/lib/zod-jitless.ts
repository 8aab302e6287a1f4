/**
 * Loaded by the entry (main.tsx) before the app, so before any module builds a schema: zod then never
 * compiles validators with `new Function`. The CSP allows no eval, and zod's probe for it (made
 * when the first object schema is built, caught but still reported) counted as a CSP violation on
 * every page. Browser only: the server has no such CSP and keeps zod's faster compiled parsing.
 */
import { z } from 'zod';

z.config({ jitless: true });
