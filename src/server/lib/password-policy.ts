import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/** zxcvbn's scale: 3 is "safely unguessable" for an online attack (about 10^10 guesses and more). */
const MIN_SCORE = 3;
let estimator: ZxcvbnFactory | undefined;

export const WEAK_PASSWORD = 'Password is too easy to guess: use a longer one, such as three or four unrelated words';

/**
 * Why a password may not be used, or undefined when it may: common passwords ("password",
 * "12345678"), repeats and keyboard walks, and passwords built from the account's own name are
 * refused everywhere a password is set (the users form, `npm run user:add`, ADMIN_PASSWORD).
 */
export function passwordProblem(password: string, related: string[] = []): string | undefined {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  // The estimator's cost grows with length; nobody types more than this, and the schema caps it at 200.
  const { score } = estimator.check(password.slice(0, 100), related.filter(Boolean));
  return score < MIN_SCORE ? WEAK_PASSWORD : undefined;
}
