import { z } from 'zod';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Pick a day');

/** The longest a single stretch of time off may be, in days. */
export const MAX_TIME_OFF_DAYS = 366;
/** The most stretches of time off to come a worker may have at once. */
export const MAX_TIME_OFF_ENTRIES = 100;

/** A stretch of whole days off, first and last included (issue 31). */
export const timeOffInput = z
  .object({
    from: day,
    to: day,
    reason: z.string().trim().max(200, 'Keep the reason under 200 characters').default(''),
  })
  .superRefine((t, ctx) => {
    if (t.to < t.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The last day must not be before the first' });
  });
export type TimeOffInput = z.input<typeof timeOffInput>;

export const timeOffView = z.object({ _id: z.string(), from: z.string(), to: z.string(), reason: z.string() });
export type TimeOffView = z.infer<typeof timeOffView>;
export const timeOffList = z.object({ timeOff: z.array(timeOffView) });
export type TimeOffList = z.infer<typeof timeOffList>;
