/**
 * The admin islands' remote data as @nanostores/query stores (issue #15 point 5; setup in stores/fetcher.ts).
 * Each store fetches when an island first shows it and is shared by every island of the page (the dashboard's
 * Overview, Departments and Payments tabs read one `$adminStats`). After an action an island calls
 * `$store.revalidate()`; the list stays on screen until the new one arrives.
 */
import type { AdminStats } from '#contracts/admin.ts';
import type { Announcement } from '#contracts/announcements.ts';
import type { Course } from '#contracts/courses.ts';
import { createFetcherStore } from '../../stores/fetcher.ts';

/** GET /api/admin/stats: totals, rates, fees, recent applications, courses, departments, SMS counts. */
export const $adminStats = createFetcherStore<AdminStats>(['/api/admin/stats']);

/** The last site build (DESIGN §4 Rebuild on publish), polled every 10 s while the tab is visible. */
export interface SiteBuild { status: string; startedAt: string; finishedAt: string | null; durationMs: number | null; error: string | null; reason: string | null }
export const $siteBuild = createFetcherStore<{ build: SiteBuild | null; building: boolean }>(['/api/admin/site-build'], { revalidateInterval: 10_000 });

/** The 20 latest applications with their fees (dashboard Payments tab). */
export const $latestFees = createFetcherStore<{ applications: AdminStats['recentApplications'] }>(['/api/admin/applications?pageSize=20']);

/** Every course, inactive included: the Courses manager and the applications' course filter. */
export const $adminCourses = createFetcherStore<{ courses: Course[] }>(['/api/courses?all=1']);

/** Every announcement, inactive included (admin Announcements). */
export const $adminAnnouncements = createFetcherStore<{ announcements: Announcement[] }>(['/api/admin/announcements']);

/** A contact-form message (GET /api/admin/contact-messages). */
export interface ContactMessage { id: number; firstName: string; lastName: string; email: string; phone: string | null; message: string; createdAt: string }
export const $contactMessages = createFetcherStore<{ messages: ContactMessage[] }>(['/api/admin/contact-messages']);

/** An assessment-centre booking (GET /api/admin/assessment-bookings). */
export interface AssessmentBooking {
  id: number; firstName: string; lastName: string; email: string; phone: string; preferredCampus: string; courseInterest: string;
  assessmentType: string; preferredDate: string; preferredTime: string; createdAt: string;
}
export const $assessmentBookings = createFetcherStore<{ bookings: AssessmentBooking[] }>(['/api/admin/assessment-bookings']);
