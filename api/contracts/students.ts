/**
 * GET /api/admin/students?q&page&pageSize (issue #6; DESIGN §4 "admin Students list (real users)"): one page of
 * students with their contact details, applications and erasure requests, and the total matching the search.
 * Dates ISO 8601. Types for the island, schema for the API test.
 */
import * as z from 'zod/mini';

const text = () => z.nullable(z.string());

export const StudentSchema = z.object({
  id: z.number(), email: z.string(), firstName: z.string(), lastName: z.string(), name: z.string(), phone: text(),
  addressLine1: text(), addressLine2: text(), city: text(), state: text(), postalCode: text(), country: text(),
  createdAt: z.string(),
  applications: z.array(z.object({ id: z.number(), status: z.string(), course: z.string(), createdAt: z.string() })),
  erasureRequests: z.array(z.object({ id: z.number(), status: z.string(), reason: text(), decisionReason: text(), createdAt: z.string(), resolvedAt: z.nullable(z.string()) })),
});
export type Student = z.output<typeof StudentSchema>;

export const StudentsPageSchema = z.object({ total: z.number(), students: z.array(StudentSchema) });
export type StudentsPage = z.output<typeof StudentsPageSchema>;
