/**
 * The admin islands' remote data as @nanostores/query stores (issue #15 point 5; setup in stores/fetcher.ts).
 * Each store fetches when an island first shows it and is shared by every island of the page (the dashboard's
 * Overview, Departments and Payments tabs read one `$adminStats`). After an action an island calls
 * `$store.revalidate()`; the list stays on screen until the new one arrives.
 */
import { atom } from 'nanostores';
import type { AdminApplicationsPage, AdminPageInfo, AdminStats } from '#contracts/admin.ts';
import type { Announcement } from '#contracts/announcements.ts';
import type { Course } from '#contracts/courses.ts';
import type { Student } from '#contracts/students.ts';
import { createFetcherStore, revalidateKeys } from '../../stores/fetcher.ts';

/** GET /api/admin/stats: totals, rates, fees, recent applications, courses, departments, SMS counts. */
export const $adminStats = createFetcherStore<AdminStats>(['/api/admin/stats']);

/** A site build as GET /api/admin/site-build reports it (DESIGN §4 Rebuild on publish). */
export interface SiteBuild { status: string; startedAt: string; finishedAt: string | null; durationMs: number | null; error: string | null; reason: string | null;
  /** Pictures an ok build left out: the course that links it (null: not a course's), its URL, why (api/src/site-build/builder.ts LeftOutImage). */
  leftOut?: { course: string | null; url: string; reason: string }[] }
/** The last site build and whether one runs now, polled every 10 s while the tab is visible. */
export const $siteBuild = createFetcherStore<{ build: SiteBuild | null; building: boolean }>(['/api/admin/site-build'], { revalidateInterval: 10_000 });

/** The 20 latest applications with their fees (dashboard Payments tab). */
export const $latestFees = createFetcherStore<{ applications: AdminStats['recentApplications'] }>(['/api/admin/applications?pageSize=20']);

/** Every course, inactive included: the Courses manager and the applications' course filter. */
export const $adminCourses = createFetcherStore<{ courses: Course[] }>(['/api/courses?all=1']);

/** Every announcement, inactive included (admin Announcements). */
export const $adminAnnouncements = createFetcherStore<{ announcements: Announcement[] }>(['/api/admin/announcements']);

/** A contact-form message (GET /api/admin/contact-messages). */
export interface ContactMessage { id: number; firstName: string; lastName: string; email: string; phone: string | null; message: string; createdAt: string }
/** The page of contact messages to show ('page=N&pageSize=25'); set by the island, idle while null. */
export const $contactMessagesQuery = atom<string | null>(null);
/** One page of contact-form messages, newest first, with the total. */
export const $contactMessages = createFetcherStore<{ messages: ContactMessage[] } & AdminPageInfo>(['/api/admin/contact-messages?', $contactMessagesQuery]);

/** An assessment-centre booking (GET /api/admin/assessment-bookings). */
export interface AssessmentBooking {
  id: number; firstName: string; lastName: string; email: string; phone: string; preferredCampus: string; courseInterest: string;
  assessmentType: string; preferredDate: string; preferredTime: string; createdAt: string;
}
/** The page of assessment bookings to show ('page=N&pageSize=25'); set by the island, idle while null. */
export const $assessmentBookingsQuery = atom<string | null>(null);
/** One page of assessment-centre bookings, newest first, with the total. */
export const $assessmentBookings = createFetcherStore<{ bookings: AssessmentBooking[] } & AdminPageInfo>(['/api/admin/assessment-bookings?', $assessmentBookingsQuery]);

/** The admin applications list's query string (search, filters, sort, page); set by the island, idle while null. */
export const $applicationsQuery = atom<string | null>(null);
/** One page of applications for `$applicationsQuery` (server-side search, sorting and paging). */
export const $applicationsPage = createFetcherStore<AdminApplicationsPage>(['/api/admin/applications?', $applicationsQuery]);

/**
 * After a status change: every cached page of applications (any filter, and the dashboard's latest fees) and the
 * dashboard totals are out of date; the ones on screen fetch again now, the others when next shown.
 */
export function refreshApplications(): void {
  revalidateKeys((key) => key.startsWith('/api/admin/applications?') || key === '/api/admin/stats');
}

/** The admin students list's query string (q, page, pageSize); set by the island, idle while null. */
export const $studentsQuery = atom<string | null>(null);
/** One page of students for `$studentsQuery`, with the total. */
export const $students = createFetcherStore<{ students: Student[]; total: number }>(['/api/admin/students?', $studentsQuery]);
