/** Campuses, departments and courses (spec §1, §3 Course). */
import { pgTable, serial, text, timestamp, integer, boolean, numeric, jsonb, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SubjectRequirement } from '#contracts/nsc.ts';

export const campuses = pgTable('campuses', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  address: text('address').notNull(),
  established: integer('established').notNull(),
}, (t) => [uniqueIndex('campuses_slug_uq').on(t.slug)]);

export const departments = pgTable('departments', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
}, (t) => [uniqueIndex('departments_name_uq').on(t.name)]);

export const courses = pgTable('courses', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  level: text('level', { enum: ['certificate', 'diploma', 'degree'] }).notNull().default('certificate'),
  /** months */
  duration: integer('duration'),
  tuitionFee: text('tuition_fee').notNull(),
  /** rand, two decimals */
  price: numeric('price', { precision: 12, scale: 2 }),
  startDate: text('start_date'),
  requirements: text('requirements'),
  /** APS 0–42, 0 = no APS requirement (issue #18) */
  minimumAps: integer('minimum_aps').notNull().default(0),
  /** [{subject, minimumPercent 0–100}] (api/contracts/nsc-schema.ts SubjectRequirementsSchema) */
  subjectRequirements: jsonb('subject_requirements').$type<SubjectRequirement[]>().notNull().default([]),
  department: text('department').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  imageUrl: text('image_url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
