import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema';
import type { TestApp } from '../helpers/test-app';

export async function updateUserEmail(t: TestApp, id: string, email: string): Promise<void> {
  await t.database.db.update(users).set({ email }).where(eq(users.id, id));
}
