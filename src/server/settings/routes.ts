import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '#shared/schemas/errors';
import { logoInput, settingsInput, settingsView } from '#shared/schemas/settings';
import { hasTwoStep } from '../auth';
import { notFound } from '../lib/http-errors';
import type { SettingsStore } from './service';

export interface SettingsRoutesOptions {
  store: SettingsStore;
}

/** The Settings page's API: admins only. */
export async function settingsRoutes(app: FastifyInstance, { store }: SettingsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const owner = { access: 'owner' as const };
  const tags = ['settings'];

  r.get(
    '/settings',
    { config: owner, schema: { tags, summary: "The business's details and rules", response: { 200: settingsView } } },
    () => store.view(),
  );

  r.put(
    '/settings',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Changed the settings' } },
      schema: {
        tags,
        summary: 'Change the details and rules; pages, e-mails, PDFs and new quotes use them at once',
        body: settingsInput,
        response: { 200: settingsView, 400: errorResponse },
      },
    },
    (request) => store.update(request.body, () => hasTwoStep(app.db, request.user!.id)),
  );

  r.put(
    '/settings/logo',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Changed the logo' } },
      schema: {
        tags,
        summary: 'Set the logo (a JPEG, PNG, WebP or GIF picture; stored as a PNG)',
        body: logoInput,
        response: { 200: settingsView, 400: errorResponse },
      },
    },
    (request) => store.setLogo(request.body.image),
  );

  r.delete(
    '/settings/logo',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Removed the logo' } },
      schema: { tags, summary: 'Remove the logo', response: { 200: settingsView } },
    },
    () => store.removeLogo(),
  );
}

/** The logo for pages, e-mails and search engines: its address names its version. */
export async function logoRoutes(app: FastifyInstance, { store }: SettingsRoutesOptions) {
  app.get<{ Params: { file: string } }>('/media/logo/:file', async (request, reply) => {
    const version = /^([0-9a-z]+)\.png$/.exec(request.params.file)?.[1];
    const business = await store.current();
    const png = version && version === business.logoVersion ? await store.logo() : undefined;
    if (!png) throw notFound('No such image');
    return reply.type('image/png').header('cache-control', 'public, max-age=31536000, immutable').send(png);
  });
}
