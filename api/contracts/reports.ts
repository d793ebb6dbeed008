/**
 * GET /api/admin/reports (issue #6 Reports tab): counts per status, course, department and week (weeks start on
 * Monday, 'YYYY-MM-DD'), acceptance rate per week in percent with one decimal, fees per week and in total as
 * decimal strings ('NNN.NN'). Types for the island, schema for the API test.
 */
import * as z from 'zod/mini';

export const ReportsSchema = z.object({
  byStatus: z.array(z.object({ status: z.string(), label: z.string(), count: z.number() })),
  byCourse: z.array(z.object({ courseId: z.number(), title: z.string(), department: z.string(), count: z.number(), eligible: z.number(), notEligible: z.number(), unknown: z.number() })),
  byDepartment: z.array(z.object({ department: z.string(), count: z.number() })),
  perWeek: z.array(z.object({ week: z.string(), count: z.number() })),
  acceptanceOverTime: z.array(z.object({ week: z.string(), accepted: z.number(), total: z.number(), rate: z.number() })),
  feesPerWeek: z.array(z.object({ week: z.string(), fees: z.string() })),
  feesCollected: z.string(),
});
export type Reports = z.output<typeof ReportsSchema>;
