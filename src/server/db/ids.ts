import { randomBytes } from 'node:crypto';

/**
 * 24 hex characters: 8 of seconds since the epoch (so ids sort by creation) and 16 random.
 * The last 9 characters, which form a quote number, are random.
 */
export function newId(): string {
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}
