import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { TwoStepEnrolment, TwoStepState } from '#shared/schemas/two-step';
import type { DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { badRequest, conflict } from '../lib/http-errors';
import type { UserRow } from '../users';
import { twoStepRecoveryCodes, twoStepSecrets } from './tables';

// Two-step sign-in (decision 040): TOTP (RFC 6238) with otplib, and ten one-time recovery codes.

/** What the install's key seals the secret for (tokens.seal). */
const SEAL = 'two-step-secret';
export const RECOVERY_CODES = 10;
/** A code from a phone whose clock is 30 s off is still taken (one step either side). */
const TOLERANCE_SECONDS = 30;

/** "k7qm2-x9fd4": 50 random bits, easy to read out and type; spaces, dashes and case do not matter. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]!);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const hashRecovery = (code: string) => createHash('sha256').update(normalizeRecovery(code)).digest('hex');

export async function twoStepState(db: DbOrTx, userId: string): Promise<Omit<TwoStepState, 'required'>> {
  const [row] = await db
    .select({ confirmedAt: twoStepSecrets.confirmedAt })
    .from(twoStepSecrets)
    .where(eq(twoStepSecrets.userId, userId));
  if (!row?.confirmedAt) return { enabled: false, since: null, recoveryCodesLeft: 0 };
  const [left] = await db
    .select({ n: count() })
    .from(twoStepRecoveryCodes)
    .where(and(eq(twoStepRecoveryCodes.userId, userId), isNull(twoStepRecoveryCodes.usedAt)));
  return { enabled: true, since: row.confirmedAt.toISOString(), recoveryCodesLeft: left?.n ?? 0 };
}

/** Whether Settings require two-step sign-in of this user: Owner and Office, who are admins until roles come. */
export async function twoStepRequiredFor(app: FastifyInstance, user: Pick<UserRow, 'role'>): Promise<boolean> {
  return user.role === 'admin' && (await app.settings.current()).requireTwoStep;
}

/** Whether this account signs in with a second step. */
export async function hasTwoStep(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: twoStepSecrets.userId })
    .from(twoStepSecrets)
    .where(and(eq(twoStepSecrets.userId, userId), isNotNull(twoStepSecrets.confirmedAt)));
  return Boolean(row);
}

/**
 * A new secret for the user's authenticator app, kept until they type a code back (confirmEnrolment).
 * Starting again replaces an unfinished one; an account that already has two-step sign-in is refused.
 */
export async function startEnrolment(
  app: FastifyInstance,
  user: { id: string; username: string },
): Promise<TwoStepEnrolment> {
  const secret = generateSecret();
  const sealed = app.tokens.seal(SEAL, secret);
  // In a transaction, so the request's trail entry is stored with it (decision 023).
  const started = await app.db.transaction((tx) =>
    tx
      .insert(twoStepSecrets)
      .values({ userId: user.id, secretSealed: sealed })
      .onConflictDoUpdate({
        target: twoStepSecrets.userId,
        set: { secretSealed: sealed, lastTimeStep: null, createdAt: sql`now()` },
        setWhere: isNull(twoStepSecrets.confirmedAt),
      })
      .returning({ userId: twoStepSecrets.userId }),
  );
  if (started.length === 0)
    throw conflict('Two-step sign-in is already on for this account: turn it off first.', 'CONFLICT');
  const issuer = (await app.settings.current()).name;
  const uri = generateURI({ issuer, label: user.username, secret });
  // An SVG drawn here: the page shows it as an image, with nothing fetched from elsewhere.
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qrSvg };
}

/** Checks a TOTP code against a sealed secret, after the last accepted step; the step it matched, or null. */
async function matchingStep(app: FastifyInstance, sealed: string, code: string, after: number | null) {
  const secret = app.tokens.unseal(SEAL, sealed);
  // Sealed by another install's key (a database restored elsewhere): no code can match; npm run
  // user:reset-2fa on the machine turns it off.
  if (!secret || !/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOLERANCE_SECONDS,
    ...(after !== null ? { afterTimeStep: after } : {}),
  });
  // TOTP's result carries the step it matched (HOTP's, in the same union, does not).
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * Takes step `step` for the user unless it, or a later one, was taken: one code signs in once, even
 * when two sign-ins carry it at the same moment (one conditional update; the other finds nothing).
 */
async function takeStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const taken = await db
    .update(twoStepSecrets)
    .set({ lastTimeStep: step })
    .where(
      and(
        eq(twoStepSecrets.userId, userId),
        or(isNull(twoStepSecrets.lastTimeStep), lt(twoStepSecrets.lastTimeStep, step)),
      ),
    )
    .returning({ userId: twoStepSecrets.userId });
  return taken.length === 1;
}

/** The code from the app, typed back: two-step sign-in is on, and the ten recovery codes are shown once. */
export async function confirmEnrolment(app: FastifyInstance, userId: string, code: string): Promise<string[]> {
  const [row] = await app.db.select().from(twoStepSecrets).where(eq(twoStepSecrets.userId, userId));
  if (!row) throw badRequest('Start again: scan the code first.', 'BAD_REQUEST');
  if (row.confirmedAt) throw conflict('Two-step sign-in is already on for this account.', 'CONFLICT');
  const step = await matchingStep(app, row.secretSealed, code.trim(), row.lastTimeStep);
  if (step === null)
    throw badRequest('That code is not right. Type the 6 digits your authenticator app shows now.', 'TWO_STEP_INVALID');
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const confirmed = await app.db.transaction(async (tx) => {
    if (!(await takeStep(tx, userId, step))) return false;
    await tx
      .update(twoStepSecrets)
      .set({ confirmedAt: sql`now()` })
      .where(eq(twoStepSecrets.userId, userId));
    await tx.delete(twoStepRecoveryCodes).where(eq(twoStepRecoveryCodes.userId, userId));
    await tx
      .insert(twoStepRecoveryCodes)
      .values(codes.map((c) => ({ id: newId(), userId, codeHash: hashRecovery(c) })));
    return true;
  });
  if (!confirmed)
    throw badRequest('That code was already used. Wait for the next one and type it.', 'TWO_STEP_INVALID');
  return codes;
}

/**
 * Ten new recovery codes in place of the old ones (few left, or some seen by someone else), for a code
 * from the app: the person still has it. The code is taken like a sign-in's (never twice). Null when
 * the code is not right.
 */
export async function renewRecoveryCodes(app: FastifyInstance, userId: string, code: string): Promise<string[] | null> {
  const [row] = await app.db
    .select()
    .from(twoStepSecrets)
    .where(and(eq(twoStepSecrets.userId, userId), isNotNull(twoStepSecrets.confirmedAt)));
  if (!row) throw conflict('Two-step sign-in is off for this account.', 'CONFLICT');
  const step = await matchingStep(app, row.secretSealed, code.replace(/\s/g, ''), row.lastTimeStep);
  if (step === null) return null;
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const renewed = await app.db.transaction(async (tx) => {
    if (!(await takeStep(tx, userId, step))) return false;
    await tx.delete(twoStepRecoveryCodes).where(eq(twoStepRecoveryCodes.userId, userId));
    await tx
      .insert(twoStepRecoveryCodes)
      .values(codes.map((c) => ({ id: newId(), userId, codeHash: hashRecovery(c) })));
    return true;
  });
  return renewed ? codes : null;
}

/**
 * The second step of a sign-in: a code from the app (each accepted once), or one of the recovery
 * codes (each used once). 'app', 'recovery', or null when neither matches.
 */
export async function checkSecondStep(
  app: FastifyInstance,
  userId: string,
  code: string,
): Promise<'app' | 'recovery' | null> {
  const [row] = await app.db
    .select()
    .from(twoStepSecrets)
    .where(and(eq(twoStepSecrets.userId, userId), isNotNull(twoStepSecrets.confirmedAt)));
  if (!row) return null;
  const digits = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) {
    const step = await matchingStep(app, row.secretSealed, digits, row.lastTimeStep);
    return step !== null && (await takeStep(app.db, userId, step)) ? 'app' : null;
  }
  if (normalizeRecovery(code).length !== 10) return null;
  const used = await app.db
    .update(twoStepRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(twoStepRecoveryCodes.userId, userId),
        eq(twoStepRecoveryCodes.codeHash, hashRecovery(code)),
        isNull(twoStepRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoStepRecoveryCodes.id });
  return used.length === 1 ? 'recovery' : null;
}

/** Turns two-step sign-in off for the user (their own choice, with a code; or the owner on the machine). */
export async function removeTwoStep(tx: DbOrTx, userId: string): Promise<boolean> {
  await tx.delete(twoStepRecoveryCodes).where(eq(twoStepRecoveryCodes.userId, userId));
  const removed = await tx
    .delete(twoStepSecrets)
    .where(eq(twoStepSecrets.userId, userId))
    .returning({ userId: twoStepSecrets.userId });
  return removed.length > 0;
}
