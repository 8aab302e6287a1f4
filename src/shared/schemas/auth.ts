import { z } from 'zod';
import { TEAM_ROLES } from '../roles';
import { USER_ROLES } from '../constants';
import { messages } from '../messages';

export const loginInput = z.object({
  username: z.string({ error: messages.loginRequired }).trim().min(1, messages.loginRequired).max(100),
  password: z.string({ error: messages.loginRequired }).min(1, messages.loginRequired).max(200),
  /** The second step, for an account with two-step sign-in: the app's 6 digits or a recovery code. */
  code: z.string().trim().max(40).optional(),
});
export type LoginInput = z.infer<typeof loginInput>;

export const loginResponse = z.object({ token: z.string(), role: z.enum(USER_ROLES) });
export type LoginResponse = z.infer<typeof loginResponse>;

export const userRoleResponse = z.object({
  valid: z.boolean(),
  userRole: z.enum(USER_ROLES).nullable(),
  /** What the person may do (decision 042): the screens show only that. */
  teamRole: z.enum(TEAM_ROLES).optional(),
  /** True when Settings require two-step sign-in for this account and it is not on yet: only Your account opens. */
  twoStepSetupRequired: z.boolean().optional(),
});
export type UserRoleResponse = z.infer<typeof userRoleResponse>;

/** POST /api/logout. */
export const signedOut = z.object({ signedOut: z.literal(true) });

/** One sign-in that is still live, in the list on Your account and on Users. */
export const sessionView = z.object({
  _id: z.string(),
  /** "Chrome on Android": the browser and system the sign-in came from, as the browser named them. */
  device: z.string(),
  ip: z.string(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  /** The session of the token that asked: signing it out is signing out here. */
  current: z.boolean(),
});
export type SessionView = z.infer<typeof sessionView>;
export const sessionList = z.object({ sessions: z.array(sessionView) });
export type SessionList = z.infer<typeof sessionList>;

export const API_KEY_SCOPES = ['read', 'write'] as const;

/** POST /api/account/api-keys: a name to know it by, and whether it may change things. */
export const apiKeyInput = z.object({
  name: z
    .string({ error: 'Name the key' })
    .trim()
    .min(1, 'Name the key')
    .max(60, 'The name must be at most 60 characters'),
  scope: z.enum(API_KEY_SCOPES, { error: 'Choose what the key may do' }),
});
export type ApiKeyInput = z.infer<typeof apiKeyInput>;

/** One of the signed-in admin's API keys, as the list shows it: never the key itself. */
export const apiKeyView = z.object({
  _id: z.string(),
  name: z.string(),
  /** "hk_AbCd1234…": the start of the key. */
  prefix: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;
export const apiKeyList = z.object({ keys: z.array(apiKeyView) });
export type ApiKeyList = z.infer<typeof apiKeyList>;
/** The answer to making one: the key, shown this once. */
export const apiKeyCreated = apiKeyView.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreated>;
