import type { FastifyInstance } from 'fastify';
import { paths } from '#shared/paths';
import type { UserRow } from '../users';
import { composeEmail, enqueueMail } from '../mail';

/** One sign-in attempt, reserved in the counters before the password is checked. */
export interface SignInAttempt {
  /** Refused without a look at the password (too many failures here); counts nothing. */
  refused: { retryAfterSeconds: number } | null;
  /**
   * The username has had too many failures from everywhere, and this clean address may try once: a
   * wrong password then answers like a refusal (the address is no longer clean).
   */
  underAttack: boolean;
  /** A wrong password (or no such user): it counts, and may tell the owner (once per window in all). */
  failed(user: UserRow | undefined): Promise<void>;
  /** The right password: the attempt does not count, and the failures of this username here are cleared. */
  succeeded(): Promise<void>;
  /** Nothing was decided (the database failed mid-way): the attempt does not count. */
  cancelled(): Promise<void>;
}

/**
 * Failed sign-ins, counted within RATE_LIMIT_WINDOW_MINUTES; guesses are throttled, not people
 * (decision 023, after OWASP's "slowing online guessing" and device cookies):
 * - a browser that signed in to this account before (its signed device cookie) has its own count,
 *   LOGIN_RATE_LIMIT_MAX failures, and nothing an attacker does elsewhere shuts it out;
 * - any other attempt: LOGIN_RATE_LIMIT_MAX failures per username and address, and
 *   LOGIN_USER_RATE_LIMIT_MAX per address for all usernames. Past LOGIN_USER_RATE_LIMIT_MAX failures
 *   for one username from everywhere, only addresses without a failure may try (once each): the owner
 *   at home gets in, a guesser spread over addresses gets one guess per address.
 * Each attempt is counted before the password is checked (parallel guesses cannot slip past), and
 * taken back when it is refused, succeeds or ends in an error: only wrong passwords count.
 */
export function createLoginThrottle(app: FastifyInstance) {
  const { counters, config } = app;
  const windowMs = config.RATE_LIMIT_WINDOW_MINUTES * 60_000;
  const retryAfterSeconds = Math.ceil(windowMs / 1000);

  /** One e-mail per window in all, for an existing account only, with nothing typed by the guesser in it. */
  async function alertOnce(user: UserRow) {
    if (!(await counters.firstTime('login-alert', windowMs))) return;
    const business = await app.settings.current();
    const { html, text } = composeEmail({
      business,
      heading: 'Many failed sign-ins',
      blocks: [
        {
          kind: 'paragraph',
          text: `In the last ${config.RATE_LIMIT_WINDOW_MINUTES} minutes there were ${config.LOGIN_USER_RATE_LIMIT_MAX} failed attempts to sign in as "${user.username}". Addresses that keep failing must wait; a browser that signed in to the account before, or an address without failures, still gets in with the right password.`,
        },
        {
          kind: 'paragraph',
          text: `This is the only such e-mail for the next ${config.RATE_LIMIT_WINDOW_MINUTES} minutes: the Activity page lists every attempt, for every account. If this was not you, someone may be guessing the password. Choose a long password that is not used anywhere else.`,
        },
        { kind: 'button', label: 'Sign in', href: `${config.PUBLIC_URL}${paths.login}` },
      ],
    });
    await enqueueMail(app.db, {
      to: business.ownerEmail,
      subject: `${business.name}: many failed sign-ins`,
      html,
      text,
    });
  }

  const unlimited: SignInAttempt = {
    refused: null,
    underAttack: false,
    failed: async () => {},
    succeeded: async () => {},
    cancelled: async () => {},
  };

  return async function begin(
    usernameInput: string,
    address: string,
    /** The device cookie's id, when it was signed for this very account. */
    trustedDevice: string | null,
  ): Promise<SignInAttempt> {
    const username = usernameInput.trim().toLowerCase();
    const keys = trustedDevice
      ? [`login-fail-device:${trustedDevice}`]
      : [`login-fail:${username}|${address}`, `login-fail-user:${username}`, `login-fail-ip:${address}`];
    let counts: number[];
    try {
      counts = await Promise.all(keys.map((key) => counters.increment(key, windowMs)));
    } catch (error) {
      // Counters unreachable (Redis down): sign-in goes on rather than lock every user out.
      app.log.warn({ err: error }, 'sign-in counters unavailable');
      return unlimited;
    }
    let settled = false;
    const takeBack = async (clear: boolean) => {
      if (settled) return;
      settled = true;
      await Promise.all(keys.map((key, i) => (clear && i === 0 ? counters.reset(key) : counters.decrement(key)))).catch(
        (error: unknown) => app.log.warn({ err: error }, 'sign-in counters unavailable'),
      );
    };
    const pairLimit = config.LOGIN_RATE_LIMIT_MAX;
    const wideLimit = config.LOGIN_USER_RATE_LIMIT_MAX;
    const [pair = 0, perUser = 0, perAddress = 0] = counts;
    // Counts include this attempt: `perAddress > 1` means the address failed before.
    const underAttack = !trustedDevice && perUser > wideLimit;
    const refused = pair > pairLimit || perAddress > wideLimit || (underAttack && perAddress > 1);
    if (refused) {
      await takeBack(false);
      return { ...unlimited, refused: { retryAfterSeconds } };
    }
    return {
      refused: null,
      underAttack,
      async failed(user) {
        if (settled) return;
        // Before it counts for good: if the e-mail cannot be queued (database down), the attempt is taken back.
        if (user && !trustedDevice && perUser >= wideLimit) await alertOnce(user);
        settled = true;
      },
      succeeded: () => takeBack(true),
      cancelled: () => takeBack(false),
    };
  };
}
