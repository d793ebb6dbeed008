/**
 * What the comprehensive registration wizard collects beyond the user row (spec §2 wizard steps 2 and 4):
 * the chosen course and the academic history, one row per user. Kept so the application form and the
 * "Download my data" export can use it.
 */
import { pgTable, integer, jsonb, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { courses } from './catalogue.ts';

export const registrationDetails = pgTable('registration_details', {
  userId: integer('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  courseId: integer('course_id').references(() => courses.id, { onDelete: 'set null' }),
  /** { highSchool: Institution, college?: Partial<Institution> } (api/contracts/auth.ts InstitutionSchema) */
  academicHistory: jsonb('academic_history').notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
