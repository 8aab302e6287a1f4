import { z } from 'zod';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time such as 08:00');

/** One day an employee can work, with the hours; the end must come after the start, and the message names the day. */
export const availability = z.object({ day: z.enum(WEEKDAYS), start: time, end: time }).superRefine((a, ctx) => {
  if (a.start >= a.end)
    ctx.addIssue({ code: 'custom', path: ['end'], message: `${a.day}: The end time must be after the start time` });
});

export const weeklySchedule = z
  .array(availability)
  .max(7)
  .refine((days) => new Set(days.map((d) => d.day)).size === days.length, 'Each day can appear only once');
export type WeeklySchedule = z.infer<typeof weeklySchedule>;

/** GET and PUT /api/my/schedule. */
export const scheduleResponse = z.object({ schedule: weeklySchedule });
export type ScheduleResponse = z.infer<typeof scheduleResponse>;
