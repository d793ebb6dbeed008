/**
 * Course and announcement saves that never reached the server (QA audit 2026-11-28, item 1): the toast keeps the
 * spec §8 title and says 'Not saved — the server could not be reached. Check your connection and try again.', as an
 * application's status change does (admin-network-failure.spec.ts), and stays until it is closed; the form keeps what
 * was typed. A refusal with the server's own message (400 with field messages) keeps its message and the usual 5 s
 * toast. And 'Add course' with Duration '-3' says 'Duration must be a positive number', not 'Duration is required'.
 * The failures are made with page.route (abort, or a balancer's 502/503 page); time is moved with page.clock.
 */
import { test, expect, type Locator, type Page } from '@playwright/test';
import { adminLogin, toast } from './admin-seed.ts';

const NOT_SAVED = 'Not saved — the server could not be reached. Check your connection and try again.';
/** A balancer's answer when no API node is up: an HTML page, not the API's JSON error. */
const gatewayDown = (status: number) => ({ status, contentType: 'text/html', body: `<html><body><h1>${status} Service Unavailable</h1></body></html>` });

/** Creates a course through the API (the page's request context is signed in as the admin); returns its title and id. */
async function course(page: Page, title: string, isActive = true): Promise<{ id: number; title: string }> {
  const res = await page.request.post('/api/courses', { data: { title, description: 'Solar panel installation for homes and small businesses.', duration: 6, department: 'Technology', tuitionFee: 'R5,000', startDate: 'July 2027', isActive } });
  expect(res.status()).toBe(201);
  return { id: (await res.json()).course.id, title };
}

/** Creates an active announcement through the API; returns its title. */
async function announcement(page: Page, title: string): Promise<string> {
  const res = await page.request.post('/api/announcements', { data: { title, content: 'The campus is closed on Friday for maintenance.', imageUrl: '', active: true, sendEmail: false, sendNotification: false } });
  expect(res.status()).toBe(201);
  return title;
}

/** `failed` shows NOT_SAVED, is still there after 10 s of page time (a plain toast goes after 5 s), and Close removes it. */
async function staysUntilClosed(page: Page, failed: Locator): Promise<void> {
  await expect(failed).toContainText(NOT_SAVED);
  await page.clock.runFor(10_000);
  await expect(failed).toBeVisible();
  await failed.getByLabel('Close').click();
  await expect(failed).toHaveCount(0);
}

test.beforeEach(async ({ page }) => {
  await adminLogin(page.request);
  await page.clock.install();
});

test('course › Save changes with the connection gone: "Failed to update course", not reached, kept until closed; the form keeps the edit', async ({ page }) => {
  const c = await course(page, `Solar ${Date.now()}`);
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: `Edit ${c.title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit course' });
  await dialog.getByLabel('Tuition fee').fill('R5,500');
  await page.route(`**/api/courses/${c.id}`, (route) => (route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.fallback()));
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await staysUntilClosed(page, toast(page, 'Failed to update course'));
  await expect(dialog.getByLabel('Tuition fee')).toHaveValue('R5,500');
});

test('course › Add course answered by a balancer\'s 503 page: "Failed to create course", not reached, kept until closed', async ({ page }) => {
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: 'Add course' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add course' });
  const title = `Plastering ${Date.now()}`;
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Description').fill('Plastering and screeding for new builders.');
  await dialog.getByLabel('Duration (months)').fill('4');
  await dialog.getByLabel('Department').selectOption('Technology');
  await dialog.getByLabel('Tuition fee').fill('R3,000');
  await dialog.getByLabel('Start date').fill('March 2027');
  await page.route('**/api/courses', (route) => (route.request().method() === 'POST' ? route.fulfill(gatewayDown(503)) : route.fallback()));
  await dialog.getByRole('button', { name: 'Create course' }).click();
  await staysUntilClosed(page, toast(page, 'Failed to create course'));
  await expect(dialog.getByLabel('Title')).toHaveValue(title);
});

test('course › Activate with the connection gone: "Failed to update course", not reached, kept until closed', async ({ page }) => {
  const c = await course(page, `Tiling ${Date.now()}`, false);
  await page.goto('/admin/courses');
  await page.route(`**/api/courses/${c.id}/activate`, (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: `Activate ${c.title}` }).click();
  await staysUntilClosed(page, toast(page, 'Failed to update course'));
});

test('course › Deactivate answered by a balancer\'s 502 page says the same', async ({ page }) => {
  const c = await course(page, `Roofing ${Date.now()}`);
  await page.goto('/admin/courses');
  await page.route(`**/api/courses/${c.id}/deactivate`, (route) => route.fulfill(gatewayDown(502)));
  await page.getByRole('button', { name: `Deactivate ${c.title}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Deactivate course' }).click();
  await staysUntilClosed(page, toast(page, 'Failed to update course'));
});

test('course › a 400 with the server\'s field message keeps it on the field and in a toast that goes as usual', async ({ page }) => {
  const c = await course(page, `Glazing ${Date.now()}`);
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: `Edit ${c.title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit course' });
  await page.route(`**/api/courses/${c.id}`, (route) => (route.request().method() === 'PUT'
    ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'validation_error', message: 'Please check the highlighted fields', fields: { startDate: 'Start date is required' } } }) })
    : route.fallback()));
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  const failed = toast(page, 'Failed to update course');
  await expect(failed).toContainText('Please check the highlighted fields');
  await expect(failed).not.toContainText(NOT_SAVED);
  await expect(dialog.getByText('Start date is required')).toBeVisible();
  await page.clock.runFor(10_000);
  await expect(failed).toHaveCount(0);
});

test('course › Add course with Duration -3 or 0 says "Duration must be a positive number"; blank says "Duration is required"', async ({ page }) => {
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: 'Add course' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add course' });
  const duration = dialog.getByLabel('Duration (months)');
  const create = dialog.getByRole('button', { name: 'Create course' });
  await duration.fill('-3');
  await create.click();
  await expect(dialog.getByText('Duration must be a positive number')).toBeVisible();
  await expect(dialog.getByText('Duration is required')).toHaveCount(0);
  await duration.fill('0');
  await create.click();
  await expect(dialog.getByText('Duration must be a positive number')).toBeVisible();
  await duration.fill('');
  await create.click();
  await expect(dialog.getByText('Duration is required')).toBeVisible();
  await expect(dialog.getByText('Duration must be a positive number')).toHaveCount(0);
});

test('announcement › Create with the connection gone: "Error creating announcement", not reached, kept until closed; the form keeps the text', async ({ page }) => {
  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: 'New announcement' }).click();
  const dialog = page.getByRole('dialog', { name: 'New announcement' });
  const title = `Open day ${Date.now()}`;
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill('Come to the open day on Saturday at 09:00.');
  await page.route('**/api/announcements', (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback()));
  await dialog.getByRole('button', { name: 'Create announcement' }).click();
  await staysUntilClosed(page, toast(page, 'Error creating announcement'));
  await expect(dialog.getByLabel('Title')).toHaveValue(title);
});

test('announcement › Save changes answered by a balancer\'s 504 page: "Error updating announcement", not reached, kept until closed', async ({ page }) => {
  const title = await announcement(page, `Closure ${Date.now()}`);
  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit announcement' });
  await dialog.getByLabel('Content').fill('The campus is closed on Friday and Saturday for maintenance.');
  await page.route('**/api/announcements/*', (route) => (route.request().method() === 'PUT' ? route.fulfill(gatewayDown(504)) : route.fallback()));
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await staysUntilClosed(page, toast(page, 'Error updating announcement'));
  await expect(dialog.getByLabel('Content')).toHaveValue('The campus is closed on Friday and Saturday for maintenance.');
});

test('announcement › Deactivate and Delete with the connection gone: "Error updating" / "Error deleting announcement", not reached, kept until closed', async ({ page }) => {
  const title = await announcement(page, `Exams ${Date.now()}`);
  await page.goto('/admin/announcements');
  await page.route('**/api/announcements/*', (route) => (['PUT', 'DELETE'].includes(route.request().method()) ? route.abort('internetdisconnected') : route.fallback()));
  await page.getByRole('button', { name: `Deactivate ${title}` }).click();
  await staysUntilClosed(page, toast(page, 'Error updating announcement'));
  await page.getByRole('button', { name: `Delete ${title}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await staysUntilClosed(page, toast(page, 'Error deleting announcement'));
});
