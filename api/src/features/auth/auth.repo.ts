/** Registration rows beside the user (issue #4 comprehensive wizard): the chosen course and academic history. */
import type { DbOrTx } from '../../db/client.ts';
import { registrationDetails } from '../../db/schema/accounts.ts';

/** Stores what the registration wizard collected besides the account (jsonb academic history as sent). */
export async function insertRegistrationDetails(db: DbOrTx, row: { userId: number; courseId: number; academicHistory: unknown }): Promise<void> {
  await db.insert(registrationDetails).values(row as typeof registrationDetails.$inferInsert);
}
