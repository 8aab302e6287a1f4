import { z } from 'zod';
import { USER_ROLES, type UserRole } from '../constants';
import { areaOf, TEAM_ROLES, type TeamRole } from '../roles';
import { weeklySchedule } from './schedule';

export const MIN_PASSWORD_LENGTH = 8;

const username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Use letters, digits, dots, dashes or underscores');
const password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(200);
const email = z.union([z.literal(''), z.email('Please enter a valid email address')]);

/** A worker's skill in the business's own words ("Pressure washing"); the spec's four are offered first. */
export const skill = z
  .string()
  .trim()
  .min(1, 'A skill cannot be empty')
  .max(40, 'A skill must be at most 40 characters');

const userFields = {
  username,
  fullName: z.string().trim().max(120).default(''),
  email: z.string().trim().max(254).pipe(email).default(''),
  phone: z.string().trim().max(40).default(''),
  role: z.enum(USER_ROLES, { error: 'Choose a role' }),
  /** What the person may do; without it an admin is an Owner and an employee Crew (decision 042). */
  teamRole: z.enum(TEAM_ROLES, { error: 'Choose a role' }).optional(),
  tags: z.array(skill).max(20, 'At most 20 skills').default([]),
};

/** The spec's role and the team role must name the same area ("admin" with Owner or Office). */
export const sameArea = (input: { role: UserRole; teamRole?: TeamRole | undefined }) =>
  !input.teamRole || areaOf(input.teamRole) === input.role;
export const areaMessage = { message: 'The role and the team role disagree', path: ['teamRole'] };

/** POST /api/users/adduser and the Add User form. */
export const addUserInput = z.object({ ...userFields, password }).refine(sameArea, areaMessage);
export type AddUserInput = z.input<typeof addUserInput>;

/** POST /api/users/updateuser and the Edit User form: the password only when it changes. */
export const updateUserInput = z
  .object({
    _id: z.string().min(1),
    ...userFields,
    password: z.union([z.literal(''), password]).optional(),
  })
  .refine(sameArea, areaMessage);
export type UpdateUserInput = z.input<typeof updateUserInput>;

export const userView = z.object({
  _id: z.string(),
  username: z.string(),
  fullName: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(USER_ROLES),
  teamRole: z.enum(TEAM_ROLES),
  tags: z.array(z.string()),
  schedule: weeklySchedule,
});
export type UserView = z.infer<typeof userView>;

/** A worker as jobs carry it. */
export const workerRef = z.object({ _id: z.string().min(1), fullName: z.string().optional() });
export type WorkerRef = z.infer<typeof workerRef>;

/** GET /api/users: a page of users. */
export const userList = z.object({ users: z.array(userView), totalPages: z.number(), total: z.number() });
export type UserList = z.infer<typeof userList>;
/** DELETE /api/users/:id. */
export const userDeleted = z.object({ deleted: z.literal(true) });
/** POST /api/users/:id/calendar-feed/reset. */
export const feedReset = z.object({ reset: z.literal(true) });
/** POST /api/users/:id/end-sessions: how many sessions ended. */
export const sessionsEnded = z.object({ ended: z.number() });
export type SessionsEnded = z.infer<typeof sessionsEnded>;
export type FeedReset = z.infer<typeof feedReset>;
export type UserDeleted = z.infer<typeof userDeleted>;
