import { z } from 'zod';

/** GET /api/backups: how this install is backed up, and the automatic backups kept. */
export const backupsView = z.object({
  database: z.enum(['pglite', 'postgres']),
  /** Hours between automatic backups (0: none). */
  everyHours: z.number(),
  keep: z.number(),
  backups: z.array(z.object({ name: z.string(), size: z.number(), createdAt: z.string() })),
});
export type BackupsView = z.infer<typeof backupsView>;
