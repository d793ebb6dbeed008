/**
 * A Submit Application whose answer is lost on the way back (the phone's connection drops after the server stored
 * the application): the page looks up My Applications before saying anything, and goes on as a success when the
 * application is there, instead of "Your application was not submitted. Failed to fetch" and a refused retry. When
 * the look-up fails too it says it could not confirm, with a link to My Applications.
 */
import { expect, test, type Page } from '@playwright/test';
import { fillApplicationWizard, uniqueEmail, type WizardData } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const LERATO: WizardData = {
  dateOfBirth: '2002-09-30', nationality: 'za', addressLine1: '4 Mvusuludzo Street', city: 'Makhado', state: 'Limpopo', postalCode: '0920', country: 'za',
  highSchool: { name: 'Makhado Secondary', city: 'Makhado', country: 'South Africa', from: '2016', to: '2020', qualification: 'National Senior Certificate', grade: '68%' },
  documents: { idDocument: { name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF }, transcripts: { name: 'results.png', mimeType: 'image/png', buffer: PNG } },
  card: { name: 'L Ndlovu', number: '5555 5555 5555 4444', expiry: '10/29', cvc: '321' },
};

/** Registers a student in the page's cookie jar and fills the wizard for course 1 up to Review & Submit. */
async function readyToSubmit(page: Page): Promise<void> {
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Lerato', lastName: 'Ndlovu', email: uniqueEmail('lost'), password: 'secret123', confirmPassword: 'secret123', phone: '0831234567', terms: true },
  });
  expect(res.status()).toBe(201);
  await page.goto('/apply/1');
  await fillApplicationWizard(page, LERATO);
}

/** /api/applications with any query (My Applications is read as ?mine=1). */
const APPLICATIONS = (url: URL) => url.pathname === '/api/applications';

/** The application POST reaches the server, which stores it; its answer never reaches the page. */
async function loseTheAnswer(page: Page): Promise<() => number> {
  let stored = 0;
  await page.route(APPLICATIONS, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    const answer = await route.fetch();
    if (answer.status() === 201) stored++;
    await route.abort('connectionreset');
  });
  return () => stored;
}

test('the server stored the application but the answer was lost: the page finds it and goes on as a success', async ({ page }) => {
  test.setTimeout(120_000);
  await readyToSubmit(page);
  const stored = await loseTheAnswer(page);
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/?$/);
  await expect(page.getByTestId('toast').getByText('Application submitted successfully')).toBeVisible();
  expect(stored()).toBe(1);
  const { applications } = await (await page.request.get('/api/applications')).json();
  expect(applications).toHaveLength(1);
});

test('the answer was lost and My Applications cannot be read either: the page says it could not confirm, with a link', async ({ page }) => {
  test.setTimeout(120_000);
  await readyToSubmit(page);
  const stored = await loseTheAnswer(page);
  await page.route(APPLICATIONS, (route) => route.request().method() === 'GET' ? route.abort('internetdisconnected') : route.fallback());
  await page.getByRole('button', { name: 'Submit Application' }).click();
  const message = page.locator('#submit-errors');
  await expect(message).toContainText("We couldn't confirm that your application arrived. Check My Applications before trying again.");
  await expect(message.getByRole('link', { name: 'My Applications' })).toHaveAttribute('href', '/my-applications');
  await expect(page.getByText('Failed to fetch')).toHaveCount(0);
  expect(stored()).toBe(1);
});
