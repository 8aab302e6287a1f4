import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { MailRelay } from './mail/relay';
import type { TokenService } from './auth/tokens';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    tokens: TokenService;
    mail: MailRelay;
  }
}
