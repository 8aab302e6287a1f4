import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { defaultBusiness } from '#shared/business';
import { passwordProblem } from './lib/password-policy';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const port = z.coerce
  .number({ error: 'must be a whole number from 1 to 65535' })
  .int('must be a whole number from 1 to 65535')
  .min(1, 'must be a whole number from 1 to 65535')
  .max(65535, 'must be a whole number from 1 to 65535');

const positiveInt = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a positive whole number' })
    .int('must be a positive whole number')
    .positive('must be a positive whole number')
    .default(fallback);

const url = (protocols: string[], hint: string) =>
  optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: hint },
  );

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies may tell us the client's address (X-Forwarded-For): unset trusts none, so the
 * socket's address counts; a whole number trusts that many hops; otherwise a comma-separated list
 * of addresses, CIDR ranges or proxy-addr's names (loopback, linklocal, uniquelocal).
 */
const trustProxy = optionalString
  .refine(
    (v) => v === undefined || /^\d+$/.test(v) || v.split(',').every((e) => isAddressOrRange(e.trim())),
    'must be a number of proxy hops, or a comma-separated list of addresses and CIDR ranges (e.g. 127.0.0.1 or 10.0.0.0/8)',
  )
  .transform((v): false | number | string[] =>
    v === undefined ? false : /^\d+$/.test(v) ? Number(v) : v.split(',').map((e) => e.trim()),
  );

/** Every environment variable the product reads; defaults make `npm start` work as it is. */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: port.default(3000),
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    /** Prometheus metrics at /metrics on this port, apart from the site (decision 039); unset: none. 0: any free port (tests). */
    METRICS_PORT: z.coerce
      .number({ error: 'must be a whole number from 0 to 65535' })
      .int('must be a whole number from 0 to 65535')
      .min(0, 'must be a whole number from 0 to 65535')
      .max(65535, 'must be a whole number from 0 to 65535')
      .optional(),
    /** Where the metrics port listens: this machine only, unless a scraper elsewhere needs it. */
    METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    DATABASE_URL: url(['postgres:', 'postgresql:'], 'must be a postgres:// URL'),
    PUBLIC_URL: url(['http:', 'https:'], 'must be an http:// or https:// URL'),
    SMTP_URL: url(['smtp:', 'smtps:'], 'must be an smtp:// or smtps:// URL'),
    MAIL_FROM: z.string().trim().min(1).default('Sac Handyman <no-reply@sachandyman.example>'),
    OWNER_EMAIL: z.email('must be an e-mail address').default('owner@sachandyman.example'),
    ADMIN_USERNAME: optionalString,
    ADMIN_PASSWORD: optionalString
      .refine((v) => v === undefined || v.length >= 8, 'must be at least 8 characters')
      .refine((v) => v === undefined || v.length < 8 || !passwordProblem(v), {
        message: `is too easy to guess: use a longer one, such as three or four unrelated words`,
      }),
    JWT_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
    TOKEN_TTL_HOURS: positiveInt(12),
    QUOTE_LINK_DAYS: positiveInt(30),
    TRUST_PROXY: trustProxy,
    REDIS_URL: url(['redis:', 'rediss:'], 'must be a redis:// URL'),
    CALENDAR_EMBED_URL: url(['https:'], 'must be an https:// URL'),
    /** Tests only: another set of migrations to apply at start (a release whose upgrade fails; decision 034). */
    MIGRATIONS_DIR: z.string().min(1).optional(),
    /** Tests only: where the payment provider's API answers (an in-process fake on 127.0.0.1; decision 035). */
    PAYMENTS_API_URL: url(['http:', 'https:'], 'must be an http:// or https:// URL'),
    /** Seconds between the reconciler's rounds (it asks the provider about checkouts not yet settled). */
    PAYMENTS_POLL_SECONDS: positiveInt(60),
    /** How long a call to the payment provider may take before it counts as unanswered. */
    PAYMENTS_TIMEOUT_MS: positiveInt(20_000),
    /** Tests only: where the text provider's API answers (an in-process fake on 127.0.0.1; decision 045). */
    TEXTS_API_URL: url(['http:', 'https:'], 'must be an http:// or https:// URL'),
    /**
     * When no text but "on my way" reaches a client, on the business's clock (decision 045): "21:00-08:00",
     * or "off" (the browser tests, which run at any hour; a business that texts at night on its own account).
     */
    TEXTS_QUIET_HOURS: z
      .string()
      .regex(/^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/, 'must be HH:MM-HH:MM or off')
      .default('21:00-08:00'),
    /** How long a call to the text provider may take before it counts as unanswered. */
    TEXTS_TIMEOUT_MS: positiveInt(15_000),
    BUSINESS_NAME: z.string().trim().min(1).default(defaultBusiness.name),
    BUSINESS_EMAIL: z.email('must be an e-mail address').default(defaultBusiness.email),
    BUSINESS_PHONE: z.string().trim().min(1).default(defaultBusiness.phone),
    HERO_IMAGES_DIR: optionalString,
    RATE_LIMIT_MAX: positiveInt(5),
    RATE_LIMIT_WINDOW_MINUTES: positiveInt(10),
    /** Wrong passwords per username from one address (or one known browser) per window (decision 023). */
    LOGIN_RATE_LIMIT_MAX: positiveInt(10),
    /** Wrong passwords per address for all usernames, and per username before only clean addresses may try. */
    LOGIN_USER_RATE_LIMIT_MAX: positiveInt(50),
    MAIL_RETRY_BASE_MS: positiveInt(5000),
    MAIL_RETRY_MAX_MS: positiveInt(15 * 60 * 1000),
    MAIL_POLL_MS: positiveInt(2000),
    /** How long a relay's claim on a message lasts; a crashed process's claims expire after it. */
    MAIL_CLAIM_SECONDS: positiveInt(120),
    /** A whole request, body included, must arrive within this: room for 3 MB of photos on a slow phone link. */
    REQUEST_TIMEOUT_SECONDS: positiveInt(120),
    /** A request's headers must arrive within this (a trickled request holds a connection open). */
    HEADERS_TIMEOUT_SECONDS: positiveInt(20),
    /**
     * A download (an export) whose reader takes nothing for this long is ended: a paused or forgotten
     * download gives back its place (two full exports at once) and its database connection.
     */
    DOWNLOAD_IDLE_SECONDS: positiveInt(300),
    /** Status lookups per client address per minute: generous for a person, a wall for a scraper. */
    STATUS_RATE_LIMIT_MAX: positiveInt(120),
    /** Hours between the automatic backups of the embedded database (0: none; the admin can still download one). */
    BACKUP_EVERY_HOURS: z.coerce
      .number({ error: 'must be a whole number of hours' })
      .int('must be a whole number of hours')
      .min(0, 'must be 0 (no automatic backups) or more')
      .max(24 * 31, 'must be at most 744 (a month)')
      .default(24),
    /** "true": refuse to upgrade a PostgreSQL database when no pg_dump snapshot can be taken first. */
    UPGRADE_SNAPSHOT_REQUIRED: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    if (env.HEADERS_TIMEOUT_SECONDS > env.REQUEST_TIMEOUT_SECONDS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HEADERS_TIMEOUT_SECONDS'],
        message: 'must not be longer than REQUEST_TIMEOUT_SECONDS',
      });
    }
    if ((env.ADMIN_USERNAME === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_USERNAME === undefined ? 'ADMIN_USERNAME' : 'ADMIN_PASSWORD'],
        message: 'ADMIN_USERNAME and ADMIN_PASSWORD go together: set both or neither',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  DATA_DIR: string;
  PUBLIC_URL: string;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws ConfigError listing every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const env = result.data;
  return {
    ...env,
    DATA_DIR: path.resolve(env.DATA_DIR),
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
  };
}
