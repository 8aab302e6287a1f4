import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

export const contactMessages = pgTable('contact_messages', {
  id: text('id').primaryKey(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email').notNull(),
  phone: text('phone').notNull().default(''),
  message: text('message').notNull(),
  createdAt: createdAt(),
});
