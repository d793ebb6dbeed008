/**
 * A Submit Application that reaches a node as it stops (rolling restart behind the balancer; QA saw it once in 9 stops):
 * the node refuses it before reading it, 503 `unavailable` 'The server is restarting. Please try again shortly.' with
 * Retry-After (api/src/server.ts refuse). The page sends it again after Retry-After (site/islands/ui/save-api.ts), the
 * button saying 'Submitting...' meanwhile and no error shown, and the application is submitted once.
 */
import { expect, test } from '@playwright/test';
import { fillApplicationWizard, uniqueEmail, type WizardData } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const NALEDI: WizardData = {
  dateOfBirth: '2003-02-14', nationality: 'za', addressLine1: '9 Thohoyandou Road', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2017', to: '2021', qualification: 'National Senior Certificate', grade: '71%' },
  documents: { idDocument: { name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF }, transcripts: { name: 'results.png', mimeType: 'image/png', buffer: PNG } },
  card: { name: 'N Mudau', number: '5555 5555 5555 4444', expiry: '10/29', cvc: '321' },
};

/** The refusal a stopping node sends (server.ts refuse), with a short Retry-After. */
const RESTARTING = { error: { code: 'unavailable', message: 'The server is restarting. Please try again shortly.' } };

test("a Submit refused with 'The server is restarting' is sent again after Retry-After: submitted, no error shown", async ({ page }) => {
  test.setTimeout(120_000);
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Naledi', lastName: 'Mudau', email: uniqueEmail('restart'), password: 'secret123', confirmPassword: 'secret123', phone: '0831234567', terms: true },
  });
  expect(res.status()).toBe(201);
  await page.goto('/apply/1');
  await fillApplicationWizard(page, NALEDI);

  const posts: number[] = [];
  let letThrough!: () => void;
  const released = new Promise<void>((r) => { letThrough = r; });
  await page.route((url) => url.pathname === '/api/applications', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    posts.push(Date.now());
    if (posts.length === 1) {
      return route.fulfill({ status: 503, contentType: 'application/json', headers: { 'Retry-After': '1', 'Cache-Control': 'no-store' }, body: JSON.stringify(RESTARTING) });
    }
    await released;
    return route.fallback();
  });

  await page.getByRole('button', { name: 'Submit Application' }).click();
  // Sent again by the page itself (held here until checked); meanwhile the button is busy and no error is shown.
  await expect.poll(() => posts.length, { message: 'the page sends the Submit again after Retry-After' }).toBe(2);
  await expect(page.getByRole('button', { name: 'Submitting...' })).toBeVisible();
  await expect(page.locator('#submit-errors')).toHaveCount(0);
  await expect(page.getByText('Error submitting application')).toHaveCount(0);
  await expect(page.getByText('The server is restarting')).toHaveCount(0);
  letThrough();

  await expect(page).toHaveURL(/\/dashboard\/student\/?$/);
  await expect(page.getByTestId('toast').getByText('Application submitted successfully')).toBeVisible();
  expect(posts).toHaveLength(2);
  const { applications } = await (await page.request.get('/api/applications')).json();
  expect(applications).toHaveLength(1);
});
