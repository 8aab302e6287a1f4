import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI generated from the routes' zod schemas, browsable at /api/docs. */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Handyman business API',
        description: 'Quote requests, quotes, jobs and staff accounts.',
        version: '1.0.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  // The pages' own security headers apply (no inline script, no framing); the UI needs nothing more.
  // Each feature's section starts folded: over 120 operations unfolded at once, Swagger UI (5.x) drew
  // the first three sections and silently stopped (tests/e2e/shell.spec.ts opens a section).
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false, uiConfig: { docExpansion: 'none' } });
}
