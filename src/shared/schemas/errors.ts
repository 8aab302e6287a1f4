import { z } from 'zod';
import { ERROR_CODES } from '../error-codes';

export { ERROR_CODES, codeForStatus, type ErrorCode } from '../error-codes';

/** The body of every 4xx and 5xx answer. */
export const errorResponse = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  code: z.enum(ERROR_CODES),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** An action that answers nothing but that it was done (POST /api/mail/:id/send-again). */
export const done = z.object({ ok: z.literal(true) });
export type Done = z.infer<typeof done>;
