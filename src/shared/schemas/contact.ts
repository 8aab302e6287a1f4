import { z } from 'zod';
import { messages } from '../messages';

/** POST /api/contact and the Contact form: one schema for both. */
export const contactInput = z.object({
  firstName: z.string({ error: messages.firstNameRequired }).trim().min(1, messages.firstNameRequired).max(60),
  lastName: z.string({ error: messages.lastNameRequired }).trim().min(1, messages.lastNameRequired).max(60),
  phone: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v) => v ?? ''),
  email: z
    .string({ error: messages.emailInvalid })
    .trim()
    .max(254, messages.emailInvalid)
    .pipe(z.email(messages.emailInvalid)),
  message: z.string({ error: messages.messageRequired }).trim().min(1, messages.messageRequired).max(5000),
});
export type ContactInput = z.input<typeof contactInput>;

/** POST /api/contact: the stored message's id. */
export const contactSent = z.object({ contactMessage: z.object({ _id: z.string() }) });
export type ContactSent = z.infer<typeof contactSent>;
