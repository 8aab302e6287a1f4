import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

describe('configuration', () => {
  it('works with nothing set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.HOST).toBe('0.0.0.0');
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.DATA_DIR).toMatch(/data$/);
  });

  it('derives PUBLIC_URL from PORT and trims a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://fix.example/' }).PUBLIC_URL).toBe('https://fix.example');
  });

  it('treats empty variables as unset, as .env.example leaves them', () => {
    const config = loadConfig({ DATABASE_URL: '', SMTP_URL: '', ADMIN_USERNAME: '', ADMIN_PASSWORD: '' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.ADMIN_USERNAME).toBeUndefined();
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', OWNER_EMAIL: 'nope', JWT_SECRET: 'short' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT: must be a whole number from 1 to 65535',
        'DATABASE_URL: must be a postgres:// URL',
        'OWNER_EMAIL: must be an e-mail address',
        'JWT_SECRET: must be at least 32 characters',
      ]),
    );
    expect((error as Error).message).toContain('Invalid configuration:');
  });

  it('wants ADMIN_USERNAME and ADMIN_PASSWORD together', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'boss' })).toThrow(
      /ADMIN_PASSWORD: ADMIN_USERNAME and ADMIN_PASSWORD go together/,
    );
    expect(() => loadConfig({ ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'short' })).toThrow(/at least 8/);
    expect(loadConfig({ ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'long enough' }).ADMIN_USERNAME).toBe('boss');
  });
});

describe('.env.example', () => {
  it('works as it is', async () => {
    const { parseEnv } = await import('node:util');
    const fs = await import('node:fs');
    const env = parseEnv(fs.readFileSync(new URL('../../.env.example', import.meta.url), 'utf8'));
    const config = loadConfig(env);
    expect(config.PORT).toBe(3000);
    expect(config.BUSINESS_PHONE).toBe('(916) 555-0142');
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('trusts no proxy unless TRUST_PROXY names one (issue 11)', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,loopback' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example', '1.2.3.4/8/9']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be a number of proxy hops/);
    }
  });
});
