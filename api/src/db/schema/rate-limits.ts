/**
 * Rate-limit counters shared by every API instance (issue #8 "Two instances", issue #4):
 * one row per limiter prefix + client key; `hits` counts requests since the window opened, the window closes at `reset_at`.
 */
import { pgTable, text, integer, timestamp } from 'drizzle-orm/pg-core';

export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});
