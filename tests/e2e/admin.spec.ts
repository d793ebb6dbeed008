/**
 * Admin portal journeys (issue #6): guards, courses published to the live site, the application queue,
 * announcements, logout. Runs against the production build (tests/e2e/serve.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, uniqueEmail } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function apiLogin(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.status()).toBe(200);
}

/** Registers a student and submits one application for `courseId`; returns the application id. */
async function studentApplies(request: APIRequestContext, courseId: number, firstName: string): Promise<number> {
  const email = uniqueEmail('queue');
  const reg = await request.post('/api/auth/register', { data: { firstName, lastName: 'Queue', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  const up = async (name: string) => (await (await request.post('/api/uploads', { multipart: { file: { name, mimeType: 'application/pdf', buffer: PDF } } })).json()).upload.id as string;
  const documents = { idDocument: await up('id.pdf'), transcripts: await up('matric.pdf') };
  const res = await request.post('/api/applications', { data: {
    courseId, firstName, lastName: 'Queue', email, phone: '0821234567', dateOfBirth: '2001-04-12', nationality: 'za',
    addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
    academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
    documents, payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardExpiry: '12/28', cardCvc: '123', cardName: 'Q', paymentTerms: true }, certification: true,
  } });
  expect(res.status()).toBe(201);
  return (await res.json()).application.id;
}

/** Types the course form's required fields, each `label: value` (spec §5 Course form). */
async function fillCourse(dialog: Locator, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) {
    if (label === 'Department') await dialog.getByLabel(label).selectOption(value);
    else await dialog.getByLabel(label).fill(value);
  }
}

/**
 * Another host with pictures for admins to link (spec §3 imageUrl): GET /pictures/drone-field.jpg answers a JPEG, any
 * other path 404. Returns its origin and a close().
 */
async function pictureHost(): Promise<{ origin: string; close(): Promise<void> }> {
  const jpeg = fs.readFileSync(new URL('../../site/assets/campus-library.jpg', import.meta.url));
  const server = http.createServer((req, res) => {
    if (req.url === '/pictures/drone-field.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** The hero or card picture `img` has loaded from this site (not another host) and its file is named after `name`. */
async function expectOwnPicture(img: Locator, name: RegExp): Promise<void> {
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
  const src = await img.evaluate((i: HTMLImageElement) => i.currentSrc);
  expect(new URL(src).pathname).toMatch(name);
  expect(new URL(src).origin).toBe(new URL(img.page().url()).origin);
}

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

test('guards › logged out goes to /auth; a student gets the Unauthorized toast and /login, and the announcements message', async ({ page }) => {
  await page.goto('/dashboard/admin');
  // /auth keeps the page that was asked for (issue #14 point 11).
  await expect(page).toHaveURL(/\/auth\?redirect=%2Fdashboard%2Fadmin$/);

  const email = uniqueEmail('student');
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Sipho', lastName: 'Student', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  await page.goto('/admin/announcements');
  await expect(page.getByRole('alert').filter({ hasText: 'Unauthorized Access' })).toHaveText('Unauthorized Access: You do not have permission to access this page. Please contact an administrator if you believe this is an error.');
  expect((await page.request.get('/api/admin/announcements')).status()).toBe(403);

  await page.goto('/admin/courses');
  // Sent to /login (spec §6), which sends a signed-in student on to their dashboard (issue #14 point 11).
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  await expect(toast(page, 'Unauthorized')).toContainText('You need admin privileges to access this page');
});

test('courses › the §5 form, Course created, and the new course goes live at /courses/{id} and /apply/{id}; deactivate takes it off', async ({ page }) => {
  // Two full site builds (publish, then deactivate) run inside this test.
  test.setTimeout(240_000);
  await apiLogin(page.request, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: 'Add course' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Create course' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await expect(dialog.getByLabel('Title')).toBeFocused();
  await expect(dialog.getByLabel('Level')).toHaveValue('certificate');
  await expect(dialog.getByLabel(/^Active/)).toBeChecked();

  const title = `Drone Piloting ${Date.now()}`;
  // Pictures by link (spec §3 imageUrl, §2 announcement image): the build copies them, visitors load them from this site.
  const pictures = await pictureHost();
  const withPicture = `Drone open day ${Date.now()}`, brokenPicture = `Drone safety talk ${Date.now()}`;
  for (const [t, imageUrl] of [[brokenPicture, `${pictures.origin}/pictures/gone.jpg`], [withPicture, `${pictures.origin}/pictures/drone-field.jpg`]]) {
    expect((await page.request.post('/api/announcements', { data: { title: t, content: 'Meet the instructors at Tshikombani.', imageUrl, active: true } })).status()).toBe(201);
  }
  await fillCourse(dialog, { Title: title, Description: 'Fly and maintain commercial drones safely and legally.', 'Duration (months)': '4',
    Department: 'Technology', 'Tuition fee': 'R4,500', 'Start date': 'March 2027', 'Image URL (optional)': `${pictures.origin}/pictures/drone-field.jpg` });
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/courses') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Create course' }).click();
  const savedAt = Date.now();
  const id = (await (await saved).json()).course.id as number;
  await expect(toast(page, 'Course created')).toBeVisible();
  await expect(page.getByTestId('course-row').filter({ hasText: title })).toBeVisible();

  // Publish: the site rebuilds after the save; the page is live once the new build is swapped in.
  await expect.poll(async () => (await page.request.get(`/courses/${id}`)).status(), { timeout: 60_000, intervals: [250] }).toBe(200);
  console.info(`[publish] course ${id} live after ${Date.now() - savedAt} ms`);
  await page.goto(`/courses/${id}`);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expectOwnPicture(page.locator('section img').first(), /^\/_astro\/drone-field_[\w-]+\.avif$/);
  expect((await page.request.get(`/apply/${id}`)).status()).toBe(200);
  await page.goto('/courses');
  await expectOwnPicture(page.locator('[data-course-card]').filter({ hasText: title }).locator('img'), /^\/_astro\/drone-field_[\w-]+\.avif$/);
  await page.goto('/about');
  const item = (t: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: t }) });
  await expectOwnPicture(item(withPicture).locator('img'), /^\/_astro\/drone-field_[\w-]+\.avif$/);
  // A link that does not open costs its picture, not the publish: the announcement shows without one.
  await expect(item(brokenPicture)).toContainText('Meet the instructors at Tshikombani.');
  await expect(item(brokenPicture).locator('img')).toHaveCount(0);
  for (const a of (await (await page.request.get('/api/admin/announcements')).json()).announcements as { id: number; title: string }[]) {
    if (a.title === withPicture || a.title === brokenPicture) expect((await page.request.delete(`/api/announcements/${a.id}`)).status()).toBe(204);
  }

  await page.goto('/admin/courses');
  await page.getByRole('button', { name: `Deactivate ${title}` }).click();
  // Deactivation asks first (issue #14 point 7).
  const confirm = page.getByRole('alertdialog', { name: `Deactivate ${title}?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Deactivate course' }).click();
  await expect(toast(page, 'Course updated')).toBeVisible();
  await expect.poll(async () => (await page.request.get(`/courses/${id}`)).status(), { timeout: 60_000, intervals: [250] }).toBe(404);
  await pictures.close();

  await page.goto('/dashboard/admin');
  await expect(page.getByRole('tab')).toHaveText(['Dashboard', 'Applications', 'Courses', 'Departments', 'Students', 'Payments', 'Reports', 'Settings', 'External System']);
  await expect(page.getByTestId('dept')).toHaveText([/^Business/, /^Technology/, /^Healthcare/, /^Arts and Design/]);
  await expect(page.getByTestId('dash-course')).toHaveCount(4);
  await expect(page.getByTestId('build-status')).toContainText('ok');
  await page.getByRole('tab', { name: 'Reports' }).click();
  await expect(page.getByRole('table', { name: 'Applications by status' })).toBeVisible();
});

test('applications › APP- ids, quick Approve on pending rows only, detail panel with documents and a status change with notes', async ({ page, playwright, baseURL }) => {
  const applicant = await playwright.request.newContext({ baseURL });
  const first = await studentApplies(applicant, 1, 'Ayanda');
  const applicant2 = await playwright.request.newContext({ baseURL });
  const second = await studentApplies(applicant2, 2, 'Mpho');

  await apiLogin(page.request, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto('/admin/applications');
  const row1 = page.getByTestId('app-row').filter({ hasText: `APP-${first}` });
  await expect(row1).toContainText('Ayanda Queue');
  await row1.getByRole('button', { name: `Approve APP-${first}` }).click();
  await page.getByRole('alertdialog', { name: `Accept APP-${first}?` }).getByRole('button', { name: 'Accept application' }).click();
  await expect(toast(page, 'Application updated')).toBeVisible();
  await expect(row1).toContainText('Accepted');
  await expect(row1.getByRole('button', { name: /Approve|Reject/ })).toHaveCount(0);

  await page.getByLabel('Search').fill(`APP-${second}`);
  const row2 = page.getByTestId('app-row').filter({ hasText: `APP-${second}` });
  await expect(page.getByTestId('app-row')).toHaveCount(1);
  await row2.getByRole('button', { name: `View APP-${second}` }).click();
  const panel = page.getByRole('dialog', { name: `Application APP-${second}` });
  await expect(panel.getByText('Mbilwi Secondary')).toBeVisible();
  await expect(panel.getByTestId('file-idDocument')).toContainText(/id\.pdf/);
  const doc = panel.getByRole('link', { name: 'Download ID Document' });
  expect((await page.request.get((await doc.getAttribute('href'))!)).status()).toBe(200);
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('documents_required');
  await panel.getByLabel(/^Notes/).fill('Certified ID copy needed');
  // Unsaved notes: closing the panel asks first (no lost work).
  await page.keyboard.press('Escape');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Keep editing' }).click();
  await expect(panel.getByLabel(/^Notes/)).toHaveValue('Certified ID copy needed');
  // Keep editing goes back into the form, where the admin was (WCAG 2.4.3).
  await expect(panel.getByLabel(/^Notes/)).toBeFocused();
  await panel.getByRole('button', { name: 'Update status' }).click();
  await expect(toast(page, 'Application updated').filter({ hasText: 'Documents Required' })).toBeVisible();
  // The button keeps the focus while it saves and after (it was disabled, and focus fell to the page).
  await expect(panel.getByRole('button', { name: 'Update status' })).toBeFocused();
  await expect(panel.getByText('Pending → Documents Required')).toBeVisible();
  // Who changed it, with their e-mail: two admins may share a display name.
  await expect(panel.getByRole('listitem').filter({ hasText: 'Pending → Documents Required' })).toContainText(`(${E2E_ADMIN.email})`);
  await expect(panel.getByText('Certified ID copy needed')).toBeVisible();
  // A confirmation inside the panel: Back answers it (Cancel) and leaves the panel open.
  await panel.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(page.getByRole('alertdialog', { name: `Reject APP-${second}?` })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(panel).toBeVisible();
  // Still on the list (the search is kept in the address, audit C item 3).
  await expect(page).toHaveURL(new RegExp(`/admin/applications\\?q=APP-${second}$`));
  // Saved: the panel closes at once (with its ×: Escape would close the toast on top first). The panel's × is its
  // first Close: the toasts, rendered inside the open panel (Toaster.tsx), have a Close each after it.
  await panel.getByRole('button', { name: 'Close' }).first().click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  // Closed: focus is back on the button that opened the panel.
  await expect(row2.getByRole('button', { name: `View APP-${second}` })).toBeFocused();
  await applicant.dispose(); await applicant2.dispose();
});

test('announcements › 500 px table, §5 messages, create, delete after confirmation, then logout to /auth', async ({ page }) => {
  await apiLogin(page.request, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto('/admin/announcements');
  const table = page.getByTestId('announcements-table');
  await expect(table).toBeVisible();
  // Spec §2: 500 px high at normal text (it grows with the reader's text size: desktop-fit.spec.ts).
  expect((await table.boundingBox())!.height).toBe(500);

  await page.getByRole('button', { name: 'New announcement' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title').fill('Hi');
  await dialog.getByLabel('Content').fill('Too short');
  await dialog.getByLabel('Image URL (optional)').fill('not-a-url');
  await dialog.getByRole('button', { name: 'Create announcement' }).click();
  await expect(dialog.getByText('Title must be at least 3 characters.')).toBeVisible();
  await expect(dialog.getByText('Content must be at least 10 characters.')).toBeVisible();
  await expect(dialog.getByLabel('Title')).toBeFocused();

  const title = `Graduation ${Date.now()}`;
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill('The graduation ceremony is on 12 December at Siloam.');
  await dialog.getByLabel('Image URL (optional)').fill('');
  await dialog.getByLabel('Send e-mail to all students').check();
  await dialog.getByRole('button', { name: 'Create announcement' }).click();
  await page.getByRole('alertdialog', { name: 'Send this announcement by e-mail?' }).getByRole('button', { name: /^Send e-mail to \d+ students?$/ }).click();
  await expect(toast(page, 'Announcement created')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New announcement' })).toBeFocused();
  await expect(toast(page, 'Email notifications sent')).toBeVisible();
  const row = page.getByTestId('announcement-row').filter({ hasText: title });
  await expect(row).toContainText('Active');
  const stored = (await (await page.request.get('/api/admin/announcements')).json()).announcements.find((a: any) => a.title === title);
  expect(stored.imageUrl).toBeNull();

  // Back answers a confirmation with Cancel (a phone's Back gesture), on the same page.
  await row.getByRole('button', { name: `Delete ${title}` }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/announcements$/);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('button', { name: `Delete ${title}` })).toBeFocused();

  await row.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Are you sure you want to delete this announcement?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Announcement deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
  // The deleted row's button is gone: focus goes to the next row (or the heading), not to the page.
  await expect(page.locator(':focus')).toHaveAccessibleName(/^Edit |^Announcements$/);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test('no lost work › a panel with typed text asks before it closes (Escape, Cancel, Back); Back closes a panel, not the page; leaving asks', async ({ page }) => {
  await apiLogin(page.request, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto('/admin/courses');
  const dialog = page.getByRole('dialog');
  const confirm = page.getByRole('alertdialog');

  // An untouched panel: Back closes it and the admin stays on the page; Back again leaves as usual.
  await page.getByRole('button', { name: 'Add course' }).click();
  await expect(dialog.getByLabel('Title')).toBeVisible();
  await page.goBack();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/courses$/);
  await expect(confirm).toHaveCount(0);

  await page.getByRole('button', { name: 'Add course' }).click();
  await dialog.getByLabel('Title').fill('Solar Installation');
  await dialog.getByLabel('Description').fill('Half a description the admin has not saved yet');

  await page.keyboard.press('Escape');
  await expect(confirm).toContainText('Discard your changes?');
  await confirm.getByRole('button', { name: 'Keep editing' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(dialog.getByLabel('Title')).toHaveValue('Solar Installation');
  await expect(dialog.getByLabel('Description')).toBeFocused();

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toContainText('What you typed in this form has not been saved and will be lost.');
  await confirm.getByRole('button', { name: 'Keep editing' }).click();
  await expect(dialog.getByLabel('Description')).toHaveValue('Half a description the admin has not saved yet');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();

  await page.goBack();
  await expect(confirm).toContainText('Discard your changes?');
  await confirm.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
  await expect(dialog.getByLabel('Title')).toHaveValue('Solar Installation');

  let asked = false;
  page.on('dialog', (d) => { if (d.type() === 'beforeunload') asked = true; void d.dismiss(); });
  await page.evaluate(() => { setTimeout(() => location.reload(), 0); });
  await expect.poll(() => asked).toBe(true);
  await expect(dialog.getByLabel('Title')).toHaveValue('Solar Installation');

  // Back again asks again (its history entry was put back), and Discard closes the panel on the same page.
  await page.goBack();
  await confirm.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/courses$/);
  await expect(page.getByRole('button', { name: 'Add course' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add course' })).toBeFocused();
});

test('no lost work › the login ended while the admin typed: "Your session has ended" logs in again in place and the course is saved once', async ({ page }) => {
  await apiLogin(page.request, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: 'Add course' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add course' });
  const title = `Beekeeping ${Date.now()}`;
  await fillCourse(dialog, { Title: title, Description: 'Keep bees, harvest honey and run a small apiary business.', 'Duration (months)': '3',
    Department: 'Business', 'Tuition fee': 'R3,200', 'Start date': 'April 2027' });

  // The login ends on the server (as after 30 minutes without a request) while the form is being filled in.
  expect((await page.request.post('/api/auth/logout')).status()).toBeLessThan(300);
  await dialog.getByRole('button', { name: 'Create course' }).click();

  const again = page.getByRole('dialog', { name: 'Your session has ended' });
  await expect(again.getByLabel('Email')).toHaveValue(E2E_ADMIN.email);
  await expect(again.getByLabel('Password')).toBeFocused();
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(again.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(again.getByLabel('Password')).toBeFocused();
  await again.getByLabel('Password').fill('not-the-password');
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(again.getByText('Invalid email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/courses$/);
  // Under the log-in dialog (hidden from assistive technology while it is open), the form is as it was.
  await expect(page.locator('#c-title')).toHaveValue(title);

  await again.getByLabel('Password').fill(E2E_ADMIN.password);
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(toast(page, 'Course created')).toBeVisible();
  await expect(again).toHaveCount(0);
  await expect(dialog).toHaveCount(0);
  const courses = (await (await page.request.get('/api/courses?all=1')).json()).courses as { title: string }[];
  expect(courses.filter((c) => c.title === title)).toHaveLength(1);
});

test('no lost work › two admins edit one course: the save from the older form is refused with the message, Reload shows the other change and keeps this admin\'s, saving again keeps both', async ({ page, playwright, baseURL }) => {
  await apiLogin(page.request, E2E_ADMIN.email, E2E_ADMIN.password);
  const title = `Aquaponics ${Date.now()}`;
  const form = { title, description: 'Grow fish and vegetables together in one recirculating system.', duration: 6, department: 'Business',
    tuitionFee: 'R5,000', startDate: 'May 2027', isActive: false };
  const created = (await (await page.request.post('/api/courses', { data: form })).json()).course as { id: number; updatedAt: string };
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit course' });
  await dialog.getByLabel('Tuition fee').fill('R7,250');

  // Meanwhile another admin, in another session, saves a new title from the same version.
  const other = await playwright.request.newContext({ baseURL });
  await apiLogin(other, E2E_ADMIN.email, E2E_ADMIN.password);
  const renamed = `${title} (NQF 4)`;
  expect((await other.put(`/api/courses/${created.id}`, { data: { ...form, title: renamed, expectedUpdatedAt: created.updatedAt } })).status()).toBe(200);
  await other.dispose();

  await dialog.getByRole('button', { name: 'Save changes' }).click();
  const conflict = dialog.getByTestId('edit-conflict');
  await expect(conflict).toContainText('Someone else changed this course since you opened it. Reload to see their changes.');
  await expect(dialog.getByRole('button', { name: 'Reload' })).toBeFocused();
  await expect(dialog.getByLabel('Tuition fee')).toHaveValue('R7,250'); // what this admin typed stays in view
  const stored = async () => (await (await page.request.get(`/api/courses/${created.id}`)).json()).course;
  expect(await stored()).toMatchObject({ title: renamed, tuitionFee: 'R5,000' });

  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(dialog.getByLabel('Title')).toHaveValue(renamed);
  // Reload keeps the field this admin changed (audit C item 1) and shows the saved one beside it.
  await expect(dialog.getByLabel('Tuition fee')).toHaveValue('R7,250');
  await expect(dialog.getByTestId('edit-kept')).toContainText('Saved version: R5,000');
  await expect(conflict).toHaveCount(0);
  await dialog.getByLabel('Tuition fee').fill('R7,250');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Course updated')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(await stored()).toMatchObject({ title: renamed, tuitionFee: 'R7,250' });
  await expect(page.getByTestId('course-row').filter({ hasText: renamed })).toBeVisible();
});

test('no lost work › announcements: a save from the older form is refused with the message; Reload shows the other change; a stale Activate is refused too', async ({ page, playwright, baseURL }) => {
  await apiLogin(page.request, E2E_ADMIN.email, E2E_ADMIN.password);
  const title = `Library hours ${Date.now()}`;
  const form = { title, content: 'The library opens at 07:30 during the exam weeks.', imageUrl: '', active: false };
  const created = (await (await page.request.post('/api/announcements', { data: form })).json()).announcement as { id: number; updatedAt: string };
  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit announcement' });
  await dialog.getByLabel('Content').fill('The library opens at 07:00 during the exam weeks.');

  const other = await playwright.request.newContext({ baseURL });
  await apiLogin(other, E2E_ADMIN.email, E2E_ADMIN.password);
  const renamed = `${title} (updated)`;
  expect((await other.put(`/api/announcements/${created.id}`, { data: { ...form, title: renamed, expectedUpdatedAt: created.updatedAt } })).status()).toBe(200);

  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByTestId('edit-conflict')).toContainText('Someone else changed this announcement since you opened it. Reload to see their changes.');
  await expect(dialog.getByRole('button', { name: 'Reload' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(dialog.getByLabel('Title')).toHaveValue(renamed);
  await expect(dialog.getByLabel('Content')).toHaveValue('The library opens at 07:00 during the exam weeks.'); // kept (audit C item 1)
  await dialog.getByLabel('Content').fill('The library opens at 07:00 during the exam weeks.');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Announcement updated')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // The table's Activate sends the row's title and content back: from a row someone else changed since, it is refused.
  const row = page.getByTestId('announcement-row').filter({ hasText: renamed });
  await expect(row).toContainText('07:00');
  const current = (await (await page.request.get('/api/admin/announcements')).json()).announcements.find((a: any) => a.id === created.id);
  expect((await other.put(`/api/announcements/${created.id}`, { data: { ...form, title: `${renamed}!`, content: current.content, expectedUpdatedAt: current.updatedAt } })).status()).toBe(200);
  await other.dispose();
  await row.getByRole('button', { name: `Activate ${renamed}` }).click();
  await expect(toast(page, 'Error updating announcement')).toContainText('Someone else changed this announcement since you opened it.');
  await expect(page.getByTestId('announcement-row').filter({ hasText: `${renamed}!` })).toContainText('Inactive');
  const after = (await (await page.request.get('/api/admin/announcements')).json()).announcements.find((a: any) => a.id === created.id);
  expect(after).toMatchObject({ title: `${renamed}!`, active: false });
  expect((await page.request.delete(`/api/announcements/${created.id}`)).status()).toBe(204);
});
