import { MAX_REQUEST_PHOTOS } from '#shared/constants';
import { messages } from '#shared/messages';
import { device, expect, screenshot, test } from './support/fixtures';
import { heavyFile, photo } from './support/files';
import { waitForMail } from './support/mail';
import { reachFor } from './support/rendering';
import { futureDate } from '../helpers/dates';
import sharp from 'sharp';
import { makePhonePhoto } from '../helpers/images';
import { PHOTO_TARGET_BYTES } from '../../src/web/lib/shrink-photo';
import { todayInBusinessZone } from '../helpers/dates';

test('a visitor asks for a quote with a photo, gets the e-mail, and follows its link to the status', async ({
  page,
}) => {
  const email = `client-${device()}-${Date.now()}@home.test`;
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

test('a photo that would go over 3 MB is refused with the spec message; those already chosen stay (issue 13.2)', async ({
  page,
}) => {
  await page.goto('/get-a-quote');
  // Photos can be chosen once the app has taken over the page the server sent (Send is enabled then),
  // when the visitor first reaches for the page.
  await reachFor(page);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await page.getByLabel('Upload Images').setInputFiles([await photo('small.jpg')]);
  await expect(page.getByRole('img', { name: /small.jpg/ })).toBeVisible();
  // Files the browser cannot shrink count at their size: the second would pass 3 MB.
  await page
    .getByLabel('Upload Images')
    .setInputFiles([heavyFile('big-1.jpg', 1_600_000), heavyFile('big-2.jpg', 1_600_000)]);
  await expect(page.getByText(messages.filesTooLarge)).toBeVisible();
  const chosen = page.getByRole('list', { name: 'Chosen photos' });
  await expect(chosen.getByRole('img', { name: /small.jpg/ })).toBeVisible();
  await expect(chosen.getByRole('img', { name: /big-1.jpg/ })).toBeVisible();
  await expect(chosen.getByRole('img', { name: /big-2.jpg/ })).toHaveCount(0);
});

test('the form keeps at most the 10 photos the server takes and says so at the 11th (issue 28, item 12)', async ({
  page,
}) => {
  await page.goto('/get-a-quote');
  await reachFor(page);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await expect(page.getByText(`up to ${MAX_REQUEST_PHOTOS} photos`)).toBeVisible();
  const small = await photo('tiny.jpg');
  const chosen = page.getByRole('list', { name: 'Chosen photos' });
  const some = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ ...small, name: `photo-${from + i}.jpg` }));
  // Nine, then two more: the tenth is kept, the eleventh is not, and the form says why.
  await page.getByLabel('Upload Images').setInputFiles(some(1, 9));
  await expect(chosen.getByRole('img')).toHaveCount(9);
  await expect(page.getByText(messages.tooManyPhotos)).toHaveCount(0);
  await page.getByLabel('Upload Images').setInputFiles(some(10, 2));
  await expect(page.getByText(messages.tooManyPhotos)).toBeVisible();
  await expect(chosen.getByRole('img')).toHaveCount(MAX_REQUEST_PHOTOS);
  await expect(chosen.getByRole('img', { name: /photo-10\.jpg/ })).toBeVisible();
  await expect(chosen.getByRole('img', { name: /photo-11\.jpg/ })).toHaveCount(0);
  await expect(page.getByText(`${MAX_REQUEST_PHOTOS} of ${MAX_REQUEST_PHOTOS} photos`)).toBeVisible();
  await screenshot(page, 'get-a-quote-eleventh-photo');
  // One removed makes room for one more.
  await page.getByRole('button', { name: 'Remove photo 1 (photo-1.jpg)' }).click();
  await page.getByLabel('Upload Images').setInputFiles(some(12, 1));
  await expect(chosen.getByRole('img', { name: /photo-12\.jpg/ })).toBeVisible();
  await expect(page.getByText(messages.tooManyPhotos)).toHaveCount(0);
});

test('ten phone photos fit: each is shrunk in the browser, upright and without its metadata (issue 13.2)', async ({
  page,
}) => {
  test.skip(device() !== 'phone', 'a phone sends phone photos (and one run of this heavy test is enough)');
  test.setTimeout(240_000);
  const original = await makePhonePhoto();
  const name = `Tenphotos ${device()}${Date.now().toString(36)}`;
  await page.goto('/get-a-quote');
  await reachFor(page);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  for (const [label, value] of [
    ['First Name', 'Tenphotos'],
    ['Last Name', name.split(' ')[1] ?? 'Client'],
    ['Email', `${name.replace(' ', '.').toLowerCase()}@home.test`],
    ['Street', '1 Capitol Mall'],
    ['City', 'Sacramento'],
    ['State', 'CA'],
    ['Zip', '95814'],
    ['Specifications', 'Ten rooms to paint.'],
  ] as const)
    await page.getByLabel(label).fill(value);
  const files = Array.from({ length: 10 }, (_, i) => ({
    name: `IMG_${i}.jpg`,
    mimeType: 'image/jpeg',
    buffer: original,
  }));
  await page.getByLabel('Upload Images').setInputFiles(files);
  const chosen = page.getByRole('list', { name: 'Chosen photos' });
  await expect(chosen.getByRole('img')).toHaveCount(10, { timeout: 60_000 });
  await expect(page.getByText(messages.filesTooLarge)).toHaveCount(0);
  // What is sent: upright (the camera stored it sideways), 2048 px on the long edge, no EXIF left (no
  // GPS position), and small enough that ten fit in 3 MB.
  const [post] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/api/quoterequest/create')),
    page.getByRole('button', { name: 'Send' }).click(),
  ]);
  const images = (post.postDataJSON() as { images: string[] }).images.map((url) =>
    Buffer.from(url.split(',')[1]!, 'base64'),
  );
  expect(images).toHaveLength(10);
  const meta = await sharp(images[0]!).metadata();
  expect(meta).toMatchObject({ format: 'jpeg', width: 1536, height: 2048 });
  expect(meta.exif).toBeUndefined();
  for (const image of images) expect(image.length).toBeLessThanOrEqual(PHOTO_TARGET_BYTES);
  // The server re-encodes the ten photos before it answers: seconds on a quiet machine, more than 20 on a
  // CI host busy with three browsers and three servers (a CI run was still "Sending" at 20 s).
  await expect(page).toHaveURL(/\/get-a-quote\/success$/, { timeout: 90_000 });
  const notice = await waitForMail('owner@handyman.test', new RegExp(`New quote request from ${name}`));
  expect(notice.text).toMatch(/Photos:\s+10\b/);
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
  await reachFor(page);
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
  // Down to the foot of the page, where the thumb is after the last field: on a phone the e-mail field
  // is then well out of view (Send alone brought into view may leave a sliver of it on a busy host).
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  if (device() === 'phone') await expect(page.getByLabel('Email')).not.toBeInViewport();
  await send.click();
  await expect(page.getByLabel('Email')).toBeFocused();
  await expect(page.getByLabel('Email')).toBeInViewport();
  await expect(page.getByText(messages.emailInvalid)).toBeInViewport();
});
