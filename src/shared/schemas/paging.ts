import { z } from 'zod';
import { PAGE_SIZE } from '../constants';

/** ?page=&limit=&search= of the paged lists (quote requests, jobs, users). */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
  search: z.string().trim().max(100).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const totalPagesOf = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));
