import type { FastifyInstance } from 'fastify';
import { badRequest } from '../lib/http-errors';

/** No form nests deeper than a few levels; 32 leaves room and refuses JSON built to exhaust a walker. */
export const MAX_INPUT_DEPTH = 32;

type Finding = { kind: 'nul'; path: string } | { kind: 'deep'; path: string };

/** Walks a parsed body without recursion (a body nested 8,000 levels deep cannot overflow the stack). */
function inspect(root: unknown, rootPath: string): Finding | undefined {
  const stack: [value: unknown, path: string, depth: number][] = [[root, rootPath, 0]];
  while (stack.length > 0) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { kind: 'nul', path };
    } else if (Buffer.isBuffer(value)) {
      // A file sent as is (a CSV to import): its route reads and checks the bytes itself.
      continue;
    } else if (value && typeof value === 'object') {
      if (depth >= MAX_INPUT_DEPTH) return { kind: 'deep', path: rootPath };
      for (const [key, inner] of Object.entries(value)) stack.push([inner, `${path}.${key}`, depth + 1]);
    }
  }
  return undefined;
}

/**
 * PostgreSQL cannot store the NUL character in text, and no form has a use for it: a request that
 * carries one anywhere (body, query, path) is refused before it reaches a handler, as is a body
 * nested deeper than any form.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const found = inspect(request.body, 'body') ?? inspect(request.query, 'query') ?? inspect(request.params, 'params');
    if (!found) return done();
    done(
      badRequest(
        found.kind === 'nul'
          ? `${found.path}: text cannot contain the NUL character`
          : `${found.path}: nested more than ${MAX_INPUT_DEPTH} levels deep`,
      ),
    );
  });
}
