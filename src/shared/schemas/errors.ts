import { z } from 'zod';

/** The body of every 4xx and 5xx answer. */
export const errorResponse = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;
