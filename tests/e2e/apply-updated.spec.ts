/**
 * A wizard left open across a deploy or a publish (audit "the site changes under an open tab"): the next step's code
 * is no longer on the server under the name the page knows. Online, the wizard says the site was updated and offers
 * Reload, which opens the step with the answers kept (the draft on the device); offline it keeps its offline text.
 */
import { expect, test } from '@playwright/test';
import { fillPersonalDetails, uniqueEmail, type PersonalDetails } from './fixtures.ts';

const DETAILS: PersonalDetails = { dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' };

test("a step whose code is gone says the site was updated (online) or needs a connection (offline); Reload opens it with the answers kept", async ({ page, context }) => {
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail(), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  // The page's build was replaced: its Academic History chunk answers 404 (HAProxy and the node tried every build).
  await page.route('**/_astro/AcademicStep.*.js', (route) => route.fulfill({ status: 404, contentType: 'text/html', body: '<h1>Page Not Found</h1>' }));
  const heading = (name: string) => expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  await page.goto('/apply/3');
  await heading('Personal Information');
  await fillPersonalDetails(page, DETAILS);
  await page.getByRole('button', { name: 'Next' }).click();
  await heading('Academic History');
  const notice = page.getByTestId('step-unavailable');
  await expect(notice).toContainText('The site was updated. Reload to continue — your answers are kept.');
  await expect(notice).not.toContainText('needs a connection');

  await context.setOffline(true);
  await expect(notice).toContainText('This step needs a connection to open the first time');
  await expect(notice.getByRole('button', { name: 'Reload' })).toHaveCount(0);
  await context.setOffline(false);
  await expect(notice).toContainText('The site was updated.');

  await page.unroute('**/_astro/AcademicStep.*.js');
  await notice.getByRole('button', { name: 'Reload' }).click();
  await heading('Academic History');
  await expect(page.locator('#f-academicHistory-highSchool-name')).toBeVisible();
  await expect(page.getByTestId('step-unavailable')).toHaveCount(0);
  await page.getByRole('button', { name: 'Previous' }).click();
  await heading('Personal Information');
  await expect(page.locator('#f-addressLine1')).toHaveValue(DETAILS.addressLine1);
  await expect(page.locator('#f-city')).toHaveValue(DETAILS.city);
});
