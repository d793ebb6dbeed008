/**
 * A course deactivated while someone is in the application wizard (reliability audit): on Submit the applicant is told
 * plainly that applications for the course have closed and that their answers are kept, with a link to the
 * catalogue, instead of "Course Not Found" after uploading everything; nothing is stored and the draft stays.
 * The message is in the focused alert and in the spec's toast ('Error submitting application' with the error text);
 * the office phone in it is a tel: link.
 */
import { expect, test } from '@playwright/test';
import { fillApplicationWizard, uniqueEmail, type WizardData } from './fixtures.ts';
import { adminLogin } from './admin-seed.ts';
import site from '../../content/site.json' with { type: 'json' };

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const NALEDI: WizardData = {
  dateOfBirth: '2003-04-12', nationality: 'za', addressLine1: '12 Mphephu Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  highSchool: { name: 'Thohoyandou Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2017', to: '2021', qualification: 'National Senior Certificate', grade: '71%' },
  documents: { idDocument: { name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF }, transcripts: { name: 'results.png', mimeType: 'image/png', buffer: PNG } },
  card: { name: 'N Mudau', number: '5555 5555 5555 4444', expiry: '10/29', cvc: '321' },
};
const CLOSED = `Applications for this course have closed. Your answers are saved — choose another course or contact the admissions office on ${site.telephone}.`;

test('the admin deactivates the course while the wizard is open: Submit says applications have closed, links to the courses, keeps the draft', async ({ page, request }) => {
  test.setTimeout(150_000);
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Naledi', lastName: 'Mudau', email: uniqueEmail('closed'), password: 'secret123', confirmPassword: 'secret123', phone: '0831234567', terms: true },
  });
  expect(res.status()).toBe(201);
  await page.goto('/apply/1');
  await fillApplicationWizard(page, NALEDI);

  await adminLogin(request);
  expect((await request.post('/api/courses/1/deactivate')).status()).toBe(200);
  try {
    await page.getByRole('button', { name: 'Submit Application' }).click();
    const errors = page.locator('#submit-errors');
    await expect(errors).toContainText('Your application was not submitted.');
    await expect(errors).toContainText(CLOSED);
    await expect(errors.getByRole('link', { name: 'Browse courses' })).toHaveAttribute('href', '/courses');
    // The focused alert has it, and so does the spec's toast (§8: 'Error submitting application' with error text).
    await expect(errors).toBeFocused();
    await expect(page.getByTestId('toast').filter({ hasText: 'Error submitting application' })).toContainText('have closed');
    await expect(errors.getByRole('link', { name: site.telephone })).toHaveAttribute('href', `tel:${site.telephone.replace(/\s/g, '')}`);
    await expect(page.getByText('Course Not Found')).toHaveCount(0);
    await expect(page).toHaveURL(/\/apply\/1\/?$/);
    // Nothing was stored, and the answers are still there: on the server (the draft) and on the page. Read from the
    // page (the browser's own session); page.request's keep-alive socket may have been closed by the server meanwhile.
    const read = (url: string) => page.evaluate(async (u) => (await fetch(u)).json(), url);
    expect((await read('/api/applications')).applications).toHaveLength(0);
    await expect.poll(async () => (await read('/api/applications/draft?key=course-1')).draft?.data?.academicHistory?.highSchool?.name).toBe(NALEDI.highSchool.name);
    await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
  } finally {
    expect((await request.post('/api/courses/1/activate')).status()).toBe(200);
  }
});
