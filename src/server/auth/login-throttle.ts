import type { FastifyInstance } from 'fastify';
import { paths } from '../../shared/paths';
import { findUserByUsername, type UserRow } from '../users';
import { composeEmail, enqueueMail } from '../mail';

export type ThrottleVerdict =
  { allowed: true; settle(succeeded: boolean): Promise<void> } | { allowed: false; retryAfterSeconds: number };

/**
 * Failed sign-ins, counted three ways within RATE_LIMIT_WINDOW_MINUTES:
 * - per username and address: LOGIN_RATE_LIMIT_MAX (10) failures, then that pair waits;
 * - per username from every address, and per address for every username: LOGIN_USER_RATE_LIMIT_MAX
 *   (50), looser, so an attacker spreading guesses over addresses or accounts is slowed down too.
 *   When a username trips it, the user (or the owner, for an account without an e-mail) is told once.
 * Only failures count: each attempt is counted before the password is checked (so parallel guesses
 * cannot slip past the limit), and a success takes its count back and clears its pair. The limits
 * last the window, never longer: an owner locked out by an attacker gets in again after it.
 */
export function createLoginThrottle(app: FastifyInstance) {
  const { counters, config } = app;
  const windowMs = config.RATE_LIMIT_WINDOW_MINUTES * 60_000;

  async function alertOnce(username: string, user: UserRow | undefined) {
    if (!(await counters.firstTime(`login-alert:${username}`, windowMs))) return;
    const business = await app.settings.current();
    const to = user?.email || business.ownerEmail;
    const { html, text } = composeEmail({
      business,
      heading: 'Many failed sign-ins',
      blocks: [
        {
          kind: 'paragraph',
          text: `In the last ${config.RATE_LIMIT_WINDOW_MINUTES} minutes there were ${config.LOGIN_USER_RATE_LIMIT_MAX} failed attempts to sign in as "${username}". Sign-ins for this username are paused until the attempts stop for ${config.RATE_LIMIT_WINDOW_MINUTES} minutes.`,
        },
        {
          kind: 'paragraph',
          text: 'If this was not you, someone may be guessing the password. Choose a long password that is not used anywhere else.',
        },
        { kind: 'button', label: 'Sign in', href: `${config.PUBLIC_URL}${paths.login}` },
      ],
    });
    await enqueueMail(app.db, { to, subject: `${business.name}: many failed sign-ins for ${username}`, html, text });
    app.mail.kick();
  }

  return async function check(usernameInput: string, address: string): Promise<ThrottleVerdict> {
    const username = usernameInput.trim().toLowerCase();
    const keys = {
      pair: `login-fail:${username}|${address}`,
      user: `login-fail-user:${username}`,
      address: `login-fail-ip:${address}`,
    };
    let counts: [number, number, number];
    try {
      counts = await Promise.all([
        counters.increment(keys.pair, windowMs),
        counters.increment(keys.user, windowMs),
        counters.increment(keys.address, windowMs),
      ]);
    } catch (error) {
      // Counters unreachable (Redis down): sign-in goes on rather than lock every user out.
      app.log.warn({ err: error }, 'sign-in counters unavailable');
      return { allowed: true, settle: async () => {} };
    }
    const [pair, user, perAddress] = counts;
    const userLimit = config.LOGIN_USER_RATE_LIMIT_MAX;
    if (pair > config.LOGIN_RATE_LIMIT_MAX || user > userLimit || perAddress > userLimit) {
      if (user === userLimit + 1) await alertOnce(username, await findUserByUsername(app.db, username));
      return { allowed: false, retryAfterSeconds: Math.ceil(windowMs / 1000) };
    }
    return {
      allowed: true,
      async settle(succeeded) {
        if (!succeeded) return;
        await Promise.all([
          counters.reset(keys.pair),
          counters.decrement(keys.user),
          counters.decrement(keys.address),
        ]).catch(() => {});
      },
    };
  };
}
