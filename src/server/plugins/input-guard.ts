import type { FastifyInstance } from 'fastify';
import { badRequest } from '../lib/http-errors';

/** No form nests deeper than a few levels; 32 leaves room and refuses JSON built to exhaust a walker. */
export const MAX_INPUT_DEPTH = 32;

type Finding = { kind: 'nul' | 'surrogate' | 'deep'; path: string };

/**
 * Half of a UTF-16 surrogate pair with no other half: JSON can carry one (`"\\ud800"`), but it is no
 * character, UTF-8 cannot encode it and PostgreSQL refuses it in JSON. (No `u` flag: with it the
 * expression would see code points, not the code units to check.)
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function inspectText(text: string, path: string): Finding | undefined {
  if (text.includes('\u0000')) return { kind: 'nul', path };
  if (LONE_SURROGATE.test(text)) return { kind: 'surrogate', path };
  return undefined;
}

/** A field's name as an error message may quote it: NUL and surrogates shown as U+FFFD. */
const printable = (key: string) =>
  Array.from(key, (c) => (c === '\u0000' || LONE_SURROGATE.test(c) ? '\ufffd' : c)).join('');

/** Walks a parsed body without recursion (a body nested 8,000 levels deep cannot overflow the stack). */
function inspect(root: unknown, rootPath: string): Finding | undefined {
  const stack: [value: unknown, path: string, depth: number][] = [[root, rootPath, 0]];
  while (stack.length > 0) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const found = inspectText(value, path);
      if (found) return found;
    } else if (Buffer.isBuffer(value)) {
      // A file sent as is (a CSV to import): its route reads and checks the bytes itself.
      continue;
    } else if (value && typeof value === 'object') {
      if (depth >= MAX_INPUT_DEPTH) return { kind: 'deep', path: rootPath };
      for (const [key, inner] of Object.entries(value)) {
        // A field's name is text too, and may end up in a stored copy of the body.
        const found = inspectText(key, `${path}.${printable(key)}`);
        if (found) return found;
        stack.push([inner, `${path}.${key}`, depth + 1]);
      }
    }
  }
  return undefined;
}

const MESSAGES: Record<Finding['kind'], (path: string) => string> = {
  nul: (path) => `${path}: text cannot contain the NUL character`,
  surrogate: (path) => `${path}: text cannot contain a lone UTF-16 surrogate (\\ud800–\\udfff without its pair)`,
  deep: (path) => `${path}: nested more than ${MAX_INPUT_DEPTH} levels deep`,
};

/**
 * PostgreSQL cannot store the NUL character in text nor a lone UTF-16 surrogate in JSON (the audit
 * trail's copy of a change), and no form has a use for either: a request that carries one anywhere
 * (body, query, path; a value or a field's name) is refused before it reaches a handler, as is a body
 * nested deeper than any form.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const found = inspect(request.body, 'body') ?? inspect(request.query, 'query') ?? inspect(request.params, 'params');
    if (!found) return done();
    done(badRequest(MESSAGES[found.kind](found.path)));
  });
}
