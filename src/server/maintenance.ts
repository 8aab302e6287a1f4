import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { trustProxyOption } from './app';
import type { Config } from './config';
import type { Database } from './db/client';
import { loggerOptions } from './lib/logging';
import { businessContact } from './settings';
import { isAdminPassword } from './users';

// Maintenance mode (issue 32, decision 034): an upgrade whose migrations failed leaves the database as
// the previous version left it, and the server, instead of stopping, serves this: a "back soon" page
// with the business's phone to every visitor, and to an admin who signs in the error, the snapshot
// taken before the upgrade to download, and the way back. It reads only what every version's tables
// have (users, settings), by plain SQL, and none of the app's features.

export interface MaintenanceState {
  /** What stopped the upgrade, as describeError keeps it (no query values). */
  error: string;
  /** The database saved before the upgrade, when one was taken. */
  snapshot: { file: string; record: string } | null;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1b1e;background:#f4f6fa}
main{max-width:640px;margin:0 auto;padding:32px 20px}h1{font-size:1.9rem;line-height:1.2;margin:0 0 12px}
.card{background:#fff;border:1px solid #dee2e6;border-radius:12px;padding:20px;margin:16px 0}
a{color:#1c4a9c}.button{display:inline-block;background:#1c4a9c;color:#fff;border:0;border-radius:8px;padding:12px 18px;font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
label{display:block;font-weight:600;margin:12px 0 4px}input{box-sizing:border-box;width:100%;font:inherit;padding:10px;border:1px solid #adb5bd;border-radius:8px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f1f3f5;border-radius:8px;padding:12px;font-size:.9rem}
.muted{color:#495057;font-size:.95rem}.error{color:#a51d24;font-weight:600}
.card>h2{font-size:1.25rem;margin:0 0 8px}.card>p:first-child{margin-top:0}.card>p:last-child{margin-bottom:0}
.secondary{background:#fff;color:#1c4a9c;border:1px solid #1c4a9c}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const SESSION_COOKIE = 'hm_maintenance';
const SESSION_MS = 60 * 60_000;
/** Wrong passwords per address per ten minutes, as the sign-in page allows by default. */
const ATTEMPTS = 10;

/** The maintenance server: built, not listening (main.ts listens; tests inject). */
export async function buildMaintenanceApp(options: {
  config: Config;
  database: Database;
  state: MaintenanceState;
}): Promise<FastifyInstance> {
  const { config, database, state } = options;
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL),
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 16 * 1024,
    requestTimeout: config.REQUEST_TIMEOUT_SECONDS * 1000,
  });
  const sessions = new Map<string, number>();
  const failures = new Map<string, { count: number; since: number }>();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });

  const contact = () => businessContact(database.db, { name: config.BUSINESS_NAME, phone: config.BUSINESS_PHONE });
  const signedIn = (request: FastifyRequest) => {
    const cookie = /(?:^|;\s*)hm_maintenance=([0-9a-f]{64})/.exec(request.headers.cookie ?? '')?.[1];
    if (!cookie) return false;
    for (const [id, until] of sessions) {
      if (until < Date.now()) sessions.delete(id);
      else if (id.length === cookie.length && timingSafeEqual(Buffer.from(id), Buffer.from(cookie))) return true;
    }
    return false;
  };

  const backSoon = async (reply: FastifyReply) => {
    const { name, phone } = await contact();
    const tel = phone.replace(/[^\d+]/g, '');
    return reply
      .code(503)
      .header('retry-after', '600')
      .type('text/html; charset=utf-8')
      .send(
        page(
          `Back soon – ${name}`,
          `<h1>We’ll be back soon</h1><p>${escape(name)} is updating this site. Please try again in a little while.</p>` +
            `<div class="card"><p>Need us now? Call <a href="tel:${escape(tel)}">${escape(phone)}</a>.</p></div>` +
            `<p class="muted"><a href="/maintenance">Staff sign-in</a></p>`,
        ),
      );
  };

  const signInPage = (reply: FastifyReply, message = '', code = 200) =>
    reply
      .code(code)
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Staff sign-in – maintenance',
          `<h1>Staff sign-in</h1><p>The site is in maintenance: the last upgrade did not finish. An admin can see why and download the data here.</p>` +
            (message ? `<p class="error" role="alert">${escape(message)}</p>` : '') +
            `<form class="card" method="post" action="/maintenance/sign-in"><label for="username">Username</label><input id="username" name="username" autocomplete="username" required maxlength="64">` +
            `<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">` +
            `<p><button class="button" type="submit">Sign in</button></p></form>`,
        ),
      );

  app.get('/api/health', (_request, reply) =>
    reply.code(503).send({ status: 'maintenance', database: 'upgrade failed' }),
  );

  app.get('/maintenance', async (request, reply) => {
    if (!signedIn(request)) return signInPage(reply);
    const snapshot = state.snapshot;
    const kind = database.kind;
    const way =
      kind === 'pglite'
        ? 'Nothing was changed: the database is as the previous version left it. Put the previous version back and start it; or, once the cause is fixed, start this one again. If the database ever needs to go back to the snapshot, stop the server and run <code>npm run rollback</code>.'
        : `Nothing was changed: the database is as the previous version left it. Put the previous version back and start it; or, once the cause is fixed, start this one again.${snapshot ? ` To put the database back to the snapshot, stop the server and run <code>npm run rollback</code>: it prints the exact <code>pg_dump</code>, <code>psql</code> and <code>pg_restore</code> lines, ending with <code>pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" ${escape(snapshot.file)}</code>.` : ''}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Maintenance – the upgrade did not finish',
          `<h1>The upgrade did not finish</h1><p>The public site shows a “back soon” page with your phone number until this is resolved.</p>` +
            `<div class="card"><h2>What stopped it</h2><pre>${escape(state.error)}</pre></div>` +
            `<div class="card"><h2>Your data</h2>` +
            (snapshot
              ? `<p>The database was saved before the upgrade (${escape(path.basename(snapshot.file))}).</p><p><a class="button" href="/maintenance/snapshot" download>Download a backup</a></p>`
              : '<p>No snapshot was taken before this upgrade (pg_dump was not on the PATH): back up the database with PostgreSQL’s own tools.</p>') +
            `</div><div class="card"><h2>The way back</h2><p>${way}</p></div>` +
            `<form method="post" action="/maintenance/sign-out"><button class="button secondary" type="submit">Sign out</button></form>`,
        ),
      );
  });

  app.post('/maintenance/sign-in', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username.slice(0, 64) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 256) : '';
    const seen = failures.get(request.ip);
    const window = config.RATE_LIMIT_WINDOW_MINUTES * 60_000;
    if (seen && Date.now() - seen.since < window && seen.count >= ATTEMPTS)
      return signInPage(reply, 'Too many attempts: try again in a few minutes.', 429);
    if (!username || !password || !(await isAdminPassword(database.db, username, password))) {
      const fresh = !seen || Date.now() - seen.since >= window;
      failures.set(request.ip, { count: fresh ? 1 : seen.count + 1, since: fresh ? Date.now() : seen.since });
      return signInPage(reply, 'The username or password is wrong, or the account is not an admin.', 401);
    }
    failures.delete(request.ip);
    const id = randomBytes(32).toString('hex');
    sessions.set(id, Date.now() + SESSION_MS);
    const secure = config.PUBLIC_URL.startsWith('https:') ? '; Secure' : '';
    return reply
      .code(303)
      .header(
        'set-cookie',
        `${SESSION_COOKIE}=${id}; Path=/maintenance; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}${secure}`,
      )
      .header('location', '/maintenance')
      .send();
  });

  app.post('/maintenance/sign-out', (request, reply) => {
    const cookie = /(?:^|;\s*)hm_maintenance=([0-9a-f]{64})/.exec(request.headers.cookie ?? '')?.[1];
    if (cookie) sessions.delete(cookie);
    return reply
      .code(303)
      .header('set-cookie', `${SESSION_COOKIE}=; Path=/maintenance; HttpOnly; SameSite=Strict; Max-Age=0`)
      .header('location', '/maintenance')
      .send();
  });

  app.get('/maintenance/snapshot', (request, reply) => {
    if (!signedIn(request)) return reply.code(303).header('location', '/maintenance').send();
    const file = state.snapshot?.file;
    if (!file || !fs.existsSync(file)) return reply.code(404).type('text/plain').send('No snapshot was taken.');
    return reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${path.basename(file)}"`)
      .header('content-length', String(fs.statSync(file).size))
      .send(fs.createReadStream(file));
  });

  // Every other address: the API says so; a page is "back soon".
  app.setNotFoundHandler((request, reply) =>
    request.url.startsWith('/api/')
      ? reply.code(503).header('retry-after', '600').send({
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'Back soon: the site is being upgraded.',
          code: 'SERVICE_UNAVAILABLE',
        })
      : backSoon(reply),
  );
  return app;
}
