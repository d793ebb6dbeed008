/**
 * Seeding and sign-in for the admin work-day specs (admin-*.spec.ts): an admin log-in by API, students who each
 * submit one application through the API, and a toast locator. Same calls as admin.spec.ts's helpers.
 */
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, uniqueEmail, type WizardFile } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Logs `request` in as the e2e admin (its cookies then carry the session). */
export async function adminLogin(request: APIRequestContext): Promise<void> {
  expect((await request.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
}

/**
 * Registers a student named `firstName lastName` in `request` (a fresh context: it ends up signed in as them) and
 * submits one application for `courseId` with two documents (`files`, by default two small PDFs id.pdf and
 * matric.pdf); returns the application id.
 */
export async function studentApplies(request: APIRequestContext, courseId: number, firstName: string, lastName: string, files?: { idDocument: WizardFile; transcripts: WizardFile }): Promise<number> {
  const email = uniqueEmail('workday');
  const reg = await request.post('/api/auth/register', { data: { firstName, lastName, email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  const up = async (file: WizardFile) => (await (await request.post('/api/uploads', { multipart: { file } })).json()).upload.id as string;
  const { idDocument, transcripts } = files ?? { idDocument: { name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF }, transcripts: { name: 'matric.pdf', mimeType: 'application/pdf', buffer: PDF } };
  const documents = { idDocument: await up(idDocument), transcripts: await up(transcripts) };
  const res = await request.post('/api/applications', { data: {
    courseId, firstName, lastName, email, phone: '0821234567', dateOfBirth: '2001-04-12', nationality: 'za',
    addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
    academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
    documents, payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardExpiry: '12/28', cardCvc: '123', cardName: firstName, paymentTerms: true }, certification: true,
  } });
  expect(res.status()).toBe(201);
  return (await res.json()).application.id;
}

/** `n` applications for course 1 from students surnamed `lastName` (a tag the list's search finds), oldest first. */
export async function applicationsTagged(newRequest: () => Promise<APIRequestContext>, lastName: string, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const ctx = await newRequest();
    ids.push(await studentApplies(ctx, 1, `Student${String.fromCharCode(65 + i)}`, lastName));
    await ctx.dispose();
  }
  return ids;
}

/** The stored status of application `id`, read with the admin's session in `request`. */
export async function storedStatus(request: APIRequestContext, id: number): Promise<string> {
  return (await (await request.get(`/api/admin/applications/${id}`)).json()).application.status;
}

/** The toasts whose text contains `title`. */
export const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

/** A surname no other test uses, letters only (names with digits are refused): 'Tag' and the time in letters. */
export function uniqueSurname(): string {
  return `Tag${[...(Date.now() * 100 + Math.floor(Math.random() * 100)).toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('')}`;
}

/**
 * A student named `firstName` (a unique surname) applies for course 1 from a request context of its own
 * (`newContext`, disposed after), then `page` is signed in as the e2e admin; returns the application id.
 */
export async function appliedThenAdmin(page: Page, newContext: () => Promise<APIRequestContext>, firstName: string): Promise<number> {
  const student = await newContext();
  const id = await studentApplies(student, 1, firstName, uniqueSurname());
  await student.dispose();
  await adminLogin(page.request);
  return id;
}

/** On /admin/applications (already open on `page`), searches for APP-`id` and opens its detail panel; returns the panel. */
export async function openApplicationPanel(page: Page, id: number): Promise<Locator> {
  await page.getByLabel('Search').fill(`APP-${id}`);
  // The searched list, not the one before it: opened from the unfiltered list, the panel's Next pointed at a row the
  // search then removed, so Next turned disabled under the keyboard focus (a CI run's "Tab past Reject" left the panel).
  const views = page.getByRole('button', { name: /^View APP-\d+$/ });
  const matching = page.getByRole('button', { name: new RegExp(`^View APP-${id}\\d*$`) });
  await expect.poll(async () => { const n = await matching.count(); return n > 0 && n === await views.count(); }).toBe(true);
  await page.getByRole('button', { name: `View APP-${id}` }).click();
  return page.getByRole('dialog', { name: `Application APP-${id}` });
}
