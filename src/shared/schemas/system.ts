import { z } from 'zod';

/** One line of the System page (decision 039): green, red with what to do, or off (not in use here). */
export const systemLine = z.object({
  /** Stable: "mail", "backups", "job:backups", "disk", … (the daily e-mail remembers them). */
  key: z.string(),
  label: z.string(),
  state: z.enum(['ok', 'failing', 'off']),
  summary: z.string(),
  /** What to do: always there on a red line. */
  action: z.string().nullable(),
});
export type SystemLine = z.infer<typeof systemLine>;

/** GET /api/system: the machinery in plain sight, for admins. */
export const systemView = z.object({
  checkedAt: z.string(),
  lines: z.array(systemLine),
  /** When the owner was last e-mailed the red lines (once a day at most), or null. */
  lastAlert: z.object({ day: z.string(), lines: z.array(z.string()) }).nullable(),
  /** Where that e-mail goes: the business's e-mail (Settings). */
  alertsTo: z.string(),
});
export type SystemView = z.infer<typeof systemView>;
