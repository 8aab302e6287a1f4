import { messages } from '../../src/shared/messages';
import { expect, screenshot, test } from './support/fixtures';
import { heavyFile, photo } from './support/files';
import { waitForMail } from './support/mail';
import { futureDate } from '../helpers/dates';
import { todayInBusinessZone } from '../../src/shared/dates';

test('a visitor asks for a quote with a photo, gets the e-mail, and follows its link to the status', async ({
  page,
}) => {
  const email = `client-${test.info().project.name}-${Date.now()}@home.test`;
  await page.goto('/get-a-quote');
  await page.getByLabel('First Name').fill('Dana');
  await page.getByLabel('Last Name').fill('Whitfield');
  await page.getByLabel('Phone').fill('916-555-0100');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Street').fill('1201 K St');
  await page.getByLabel('City').fill('Sacramento');
  await page.getByLabel('State').fill('CA');
  await page.getByLabel('Zip').fill('95814');
  await page.getByLabel('Specifications').fill('The fence gate sags and the bathroom faucet drips.');
  await page.getByLabel('Preferred End Date').fill(futureDate(28));
  // Photos can be chosen once the app has taken over the page the server sent (Send is enabled then).
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await page.getByLabel('Upload Images').setInputFiles([await photo('gate.jpg'), await photo('faucet.jpg', '#c63')]);
  await expect(page.getByRole('img', { name: /Photo 1: gate.jpg/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /Photo 2: faucet.jpg/ })).toBeVisible();
  await page.getByRole('button', { name: 'Remove photo 2 (faucet.jpg)' }).click();
  await expect(page.getByRole('img', { name: /faucet/ })).toHaveCount(0);
  await screenshot(page, 'get-a-quote-filled');

  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page).toHaveURL(/\/get-a-quote\/success$/);
  await expect(page.getByRole('heading', { name: 'Sent!' })).toBeVisible();

  const mail = await waitForMail(email, /Quote Number Q[0-9A-F]{9}/);
  const number = /Q[0-9A-F]{9}/.exec(mail.subject!)![0];
  const link = /http:\/\/127\.0\.0\.1:\d+\/quote-request-status\/[0-9a-f]{24}/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeDefined();
  await waitForMail('owner@handyman.test', new RegExp(number));

  await page.goto(link!);
  await expect(page.getByRole('heading', { name: `Quote Request #${number}` })).toBeVisible();
  await expect(page.getByText('Pending', { exact: true })).toBeVisible();
  await screenshot(page, 'status-pending');
});

test('the quote form shows every validation message beside its field', async ({ page }) => {
  await page.goto('/get-a-quote');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Send' }).click();
  for (const message of [
    messages.firstNameRequired,
    messages.lastNameRequired,
    messages.emailInvalid,
    messages.streetRequired,
    messages.cityRequired,
    messages.stateRequired,
    messages.zipRequired,
    messages.specificationsRequired,
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(page.getByLabel('First Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/get-a-quote$/);
  await screenshot(page, 'get-a-quote-errors');
});

test('photos over 3 MB in total clear the selection with the spec message', async ({ page }) => {
  await page.goto('/get-a-quote');
  // Photos can be chosen once the app has taken over the page the server sent (Send is enabled then).
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await page.getByLabel('Upload Images').setInputFiles([await photo('small.jpg')]);
  await expect(page.getByRole('img', { name: /small.jpg/ })).toBeVisible();
  await page
    .getByLabel('Upload Images')
    .setInputFiles([heavyFile('big-1.jpg', 1_600_000), heavyFile('big-2.jpg', 1_600_000)]);
  await expect(page.getByText(messages.filesTooLarge)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Chosen photos' })).toHaveCount(0);
});

test('a refused request shows the spec toasts: 429 and any other failure', async ({ page }) => {
  await page.goto('/get-a-quote');
  for (const [label, value] of [
    ['First Name', 'A'],
    ['Last Name', 'B'],
    ['Email', 'a@b.test'],
    ['Street', '1 Main'],
    ['City', 'Davis'],
    ['State', 'CA'],
    ['Zip', '95616'],
    ['Specifications', 'Paint'],
  ]) {
    await page.getByLabel(label!).fill(value!);
  }
  // The real limit is tested against the server in the API suite; here the browser's handling of it.
  await page.route('**/api/quoterequest/create', (route) =>
    route.fulfill({
      status: 429,
      json: { statusCode: 429, error: 'Too Many Requests', message: messages.tooManyAttempts, code: 'RATE_LIMITED' },
    }),
  );
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(messages.tooManyAttempts)).toBeVisible();
  await page.route('**/api/quoterequest/create', (route) =>
    route.fulfill({ status: 400, json: { statusCode: 400, error: 'Bad Request', message: 'x' } }),
  );
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(messages.quoteSubmitError)).toBeVisible();
  await expect(page.getByLabel('First Name')).toHaveValue('A');
});

test('the Send button reads Sending and is disabled while the request is on its way', async ({ page }) => {
  await page.goto('/get-a-quote');
  for (const [label, value] of [
    ['First Name', 'Ana'],
    ['Last Name', 'Cruz'],
    ['Email', 'ana@home.test'],
    ['Street', '9 Oak'],
    ['City', 'Folsom'],
    ['State', 'CA'],
    ['Zip', '95630'],
    ['Specifications', 'Drywall patch'],
  ]) {
    await page.getByLabel(label!).fill(value!);
  }
  // Hold the real request for a moment so the in-between state can be seen.
  await page.route('**/api/quoterequest/create', async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page.getByRole('button', { name: 'Send' }).click();
  const sending = page.getByRole('button', { name: 'Sending' });
  await expect(sending).toBeVisible();
  await expect(sending).toBeDisabled();
  await expect(page.getByLabel('First Name')).toBeDisabled();
  await expect(page).toHaveURL(/\/get-a-quote\/success$/);
});

test('a refused field on a phone: Send brings it into view with the focus (issue 13.1)', async ({ page }) => {
  await page.goto('/get-a-quote');
  // The date picker starts at today where the business is (issue 13.4; the server refuses earlier dates too).
  await expect(page.getByLabel('Preferred End Date')).toHaveAttribute('min', todayInBusinessZone());
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await page.getByLabel('First Name').fill('Dana');
  await page.getByLabel('Last Name').fill('Whitfield');
  await page.getByLabel('Email').fill('dana@gmail');
  await page.getByLabel('Street').fill('1201 K St');
  await page.getByLabel('City').fill('Sacramento');
  await page.getByLabel('State').fill('CA');
  await page.getByLabel('Zip').fill('95814');
  await page.getByLabel('Specifications').fill('The fence gate sags.');
  const send = page.getByRole('button', { name: 'Send' });
  await send.scrollIntoViewIfNeeded();
  if (test.info().project.name === 'phone') await expect(page.getByLabel('Email')).not.toBeInViewport();
  await send.click();
  await expect(page.getByLabel('Email')).toBeFocused();
  await expect(page.getByLabel('Email')).toBeInViewport();
  await expect(page.getByText(messages.emailInvalid)).toBeInViewport();
});
