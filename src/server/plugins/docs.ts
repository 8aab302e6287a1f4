import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** Who may call a route, in the documentation's words (decision 042). */
const WHO = {
  staff: 'any signed-in staff member',
  office: 'the Owner and Office',
  owner: 'the Owner',
} as const;

/** OpenAPI generated from the routes' zod schemas, browsable at /api/docs. */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Handyman business API',
        description: 'Quote requests, quotes, jobs and staff accounts.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The token POST /api/login answers: a signed-in session.',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'hk_…',
            description:
              "A personal API key the Owner makes on Your account: it acts as its maker, read-only or read-write, at most 120 calls a minute. Not for the account's own routes (two-step sign-in, sessions, keys).",
          },
        },
      },
    },
    // Every route but the public ones takes either token.
    transform: (args) => {
      const out = jsonSchemaTransform(args);
      const access = (args.route as { config?: { access?: string } } | undefined)?.config?.access;
      if (access && access !== 'public') {
        const schema = out.schema as { security?: unknown; description?: string };
        schema.security = [{ bearer: [] }, { apiKey: [] }];
        schema.description = [schema.description, `Who may call it: ${WHO[access as keyof typeof WHO]}.`]
          .filter(Boolean)
          .join('\n\n');
      }
      return out;
    },
  });
  // The pages' own security headers apply (no inline script, no framing); the UI needs nothing more.
  // Each feature's section starts folded: over 120 operations unfolded at once, Swagger UI (5.x) drew
  // the first three sections and silently stopped (tests/e2e/shell.spec.ts opens a section).
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false, uiConfig: { docExpansion: 'none' } });
}
