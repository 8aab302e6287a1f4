import { messages } from '#shared/messages';
import { EMAIL_OR_PHONE_REQUIRED } from '#shared/phone';
import { pdfText } from '../helpers/pdf';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { receivedMail, waitForMail } from './support/mail';
import { renderedByTheBrowser } from './support/rendering';
import { apiToken, sentQuoteLink, signInAs } from './support/staff';

const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;

test('client asks a question → owner answers and revises → client picks an option and accepts version 2 with a typed name → the job carries the chosen lines, the PDF shows the acceptance', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(240_000);
  const tag = `${device()}${Date.now().toString(36)}`;
  // A long name makes a long e-mail address: the pages must wrap it on a phone.
  const name = `Morgan Conversation Whitley-Abernathy ${tag}`;
  const firstLink = await sentQuoteLink(request, name, waitForMail);
  const firstNumber = /\/quote\/(QT\d{8})/.exec(firstLink)![1]!;

  // The client opens the quote on their own device and asks a question.
  const clientContext = await browser.newContext({ viewport: page.viewportSize()! });
  const client = await clientContext.newPage();
  await client.goto(firstLink);
  await expect(client.getByRole('region', { name: 'Quote preview' })).toContainText('Valid until');
  await client.getByRole('button', { name: 'Request more info' }).click();
  await client.getByLabel(/^Your question/).fill('Could you also replace the gate latch?');
  await client.getByRole('button', { name: 'Send my question' }).click();
  await expect(client.getByText('Thanks, we received your question')).toBeVisible();
  await expect(client.getByRole('button', { name: 'Accept the quote' })).toBeVisible();
  // The status page says where the quote stands, beside the request's status.
  await client.goto('/quote-request-status');
  await client.getByLabel(/^Quote Number/).fill(firstNumber);
  await client.getByRole('button', { name: 'Check Quote Request Status' }).click();
  await expect(client.getByRole('heading', { name: `Quote Request #${firstNumber}` })).toBeVisible();
  await expect(client.getByText('Your quote: Question asked')).toBeVisible();
  await expect(client.getByText('Quote Sent', { exact: true })).toBeVisible();

  // The owner sees it in the list (quote state beside the request's status), answers and revises.
  await signInAs(page, await apiToken(request));
  await page.goto(
    `/admin/quote-requests?status=${encodeURIComponent('Quote: Question asked')}&q=${encodeURIComponent(name)}`,
  );
  const row = page.locator(device() === 'phone' ? 'li' : 'tr').filter({ hasText: name });
  await expect(row).toContainText('Quote: Question asked');
  await row.getByRole('link', { name: 'View' }).click();
  await expect(page.getByText('Could you also replace the gate latch?').first()).toBeVisible();
  await expect(page.getByText(/Opened (just now|\d+ min ago)/)).toBeVisible();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline).toContainText('Client asked a question');
  await expect(timeline).toContainText(`Client opened quote ${firstNumber}`);
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page.getByText('Please write your answer')).toBeVisible();
  await page.getByLabel(/^Your answer/).fill('Yes: I have added it as an option, you choose.');
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page.getByText('Answer sent to the client')).toBeVisible();
  await expect(timeline).toContainText('Answer sent');
  const answer = await waitForMail(emailOf(name), new RegExp(`^Re: your quote ${firstNumber}`));
  expect(answer.text).toContain('Yes: I have added it as an option, you choose.');

  await page.getByRole('button', { name: 'Revise quote' }).click();
  await expect(page.getByRole('heading', { name: `Revise Quote ${firstNumber}` })).toBeVisible();
  await expect(page.getByText(/Deck boards/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Add Material' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Material' });
  await dialog.getByLabel(/^Name/).fill('Gate latch upgrade');
  await dialog.getByLabel(/^Unit Price/).fill('40');
  await dialog.getByLabel(/^Quantity/).fill('1');
  await dialog.getByLabel(/^Optional/).check();
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Add Material' }).click();
  await dialog.getByLabel(/^Name/).fill('Post cap set');
  await dialog.getByLabel(/^Unit Price/).fill('25');
  await dialog.getByLabel(/^Quantity/).fill('1');
  await dialog.getByLabel(/^Optional/).check();
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  // Optional lines are not in the total: 125.00 + 10.00 tax.
  const preview = page.getByRole('region', { name: 'Quote preview' });
  await expect(preview).toContainText('$135.00');
  await expectNoAxeViolations(page);
  await screenshot(page, 'quote-revise');
  await page.getByRole('button', { name: 'Send Revised Quote' }).click();
  await expect(page.getByText(`Quote ${firstNumber}-2 sent to the client`)).toBeVisible();
  await expect(page.getByRole('heading', { name: new RegExp(`Sent Quote ${firstNumber}-2`) })).toBeVisible();
  await expect(timeline).toContainText(`Revised quote ${firstNumber}-2 sent`);

  // The old link says it was replaced and leads to version 2.
  const revised = await waitForMail(emailOf(name), new RegExp(`^Your updated quote ${firstNumber}-2`));
  expect(revised.text).toContain('Gate latch upgrade (optional)');
  await client.goto(firstLink);
  await expect(client.getByRole('heading', { name: 'This quote was replaced by a newer version' })).toBeVisible();
  await expectNoAxeViolations(client);
  await client.getByRole('link', { name: `Open quote ${firstNumber}-2` }).click();
  await expect(client).toHaveURL(new RegExp(`/quote/${firstNumber}-2\\?token=`));
  const doc = client.getByRole('region', { name: 'Quote preview' });
  await expect(doc).toContainText('$135.00');
  // Ticking an option updates the totals at once: 125 + 40 = 165.00, tax 13.20, total 178.20.
  await client.getByRole('checkbox', { name: /Gate latch upgrade/ }).check();
  await expect(doc).toContainText('$178.20');
  await expectNoAxeViolations(client);
  await screenshot(client, 'client-quote-options');
  await client.getByRole('button', { name: 'Accept the quote' }).click();
  await expect(client.getByRole('heading', { name: 'Accept for $178.20' })).toBeVisible();
  await client.getByLabel(/^Your full name/).fill('Morgan Conversation');
  await screenshot(client, 'client-quote-sign');
  await client.getByRole('button', { name: 'Accept and sign' }).click();
  await expect(client).toHaveURL(/\/quote\/accepted$/);
  await clientContext.close();

  // The confirmation's PDF prints the acceptance and only the chosen option.
  const confirmation = await waitForMail(emailOf(name), new RegExp(`^Quote ${firstNumber}-2 accepted`));
  const pdf = await pdfText(confirmation.attachments.find((a) => a.contentType === 'application/pdf')!.content);
  expect(pdf).toContain('Accepted by Morgan Conversation');
  expect(pdf).toContain('Gate latch upgrade');
  expect(pdf).not.toContain('Post cap set');
  expect(pdf).toContain('$178.20');

  // The owner sees the signature; the job carries exactly the chosen lines.
  await page.reload();
  await expect(page.getByText('Signed “Morgan Conversation”').first()).toBeVisible();
  await expect(timeline).toContainText(`Client accepted quote ${firstNumber}-2`);
  await expect(timeline).toContainText('Job created');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'request-timeline');
  await page.getByRole('link', { name: /^Open job J[0-9A-F]{9}$/ }).click();
  await expect(page.getByText('Gate latch upgrade')).toBeVisible();
  await expect(page.getByText('Post cap set')).toHaveCount(0);
  await expect(page.getByText('$178.20')).toBeVisible();

  // The client's record holds the request, both versions and the job.
  if (device() === 'phone') await page.getByRole('button', { name: 'Open the menu' }).click();
  await page.getByRole('link', { name: 'Clients' }).click();
  await page.getByLabel('Search clients').fill(emailOf(name));
  // The rows move when the search lands: tap once the list holds this client alone.
  await expect(page.getByText(/^1 client$/)).toBeVisible();
  const clientRow = page.locator(device() === 'phone' ? 'li' : 'tr').filter({ hasText: name });
  await clientRow.getByRole('link', { name: 'View' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByText('Replaced by a newer version')).toBeVisible();
  await expect(page.getByRole('link', { name: `${firstNumber}-2` })).toBeVisible();
  await expect(page.getByRole('link', { name: /^J[0-9A-F]{9}$/ })).toBeVisible();
  // A long e-mail address wraps: the page never scrolls sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoAxeViolations(page);
  await screenshot(page, 'client-page');
});

test('the office enters a phoned-in request for a returning client, found again by phone on the Clients page', async ({
  page,
  request,
}) => {
  const tag = `${device()}${Date.now().toString(36)}`;
  await signInAs(page, await apiToken(request));
  await page.goto('/admin/quote-requests');
  await page.getByRole('link', { name: 'Enter a phoned-in request' }).click();
  await expect(page.getByRole('heading', { name: 'Enter a phoned-in request' })).toBeVisible();
  await page.getByRole('button', { name: 'Save request' }).click();
  const entry = page.getByRole('form', { name: 'Phoned-in request' });
  // The public form's checks, but an e-mail or a phone will do (issue 28.4).
  await expect(page.getByText(messages.firstNameRequired)).toBeVisible();
  await expect(page.getByText(EMAIL_OR_PHONE_REQUIRED)).toBeVisible();
  for (const [label, value] of [
    ['First Name', 'Casey'],
    ['Last Name', `Caller ${tag}`],
    ['Phone', '(916) 555-4321'],
    ['Email', `caller.${tag}@home.test`],
    ['Street', '77 Elm Ct'],
    ['City', 'Roseville'],
    ['State', 'CA'],
    ['Zip', '95678'],
    ['Specifications', 'Leaking outdoor spigot.'],
  ]) {
    await entry.getByLabel(label!).fill(value!);
  }
  await expectNoAxeViolations(page);
  await screenshot(page, 'phone-entry');
  await page.getByRole('button', { name: 'Save request' }).click();
  await expect(page.getByRole('heading', { name: 'Quote Request' })).toBeVisible();
  // Straight to its Quote Builder, accepted already (issue 28.10).
  await expect(page.getByRole('heading', { name: 'Quote Builder' })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Accept Quote Request' })).toHaveCount(0);
  await screenshot(page, 'phone-entry-builder', { fullPage: false });
  await expect(page.getByText('Request entered by the office')).toBeVisible();
  await expect(page.getByText('Leaking outdoor spigot.')).toBeVisible();
  // The quote is the first thing after the confirmation the client gets: no "a quote is being prepared".
  await page.getByRole('button', { name: 'Add Material' }).click();
  const material = page.getByRole('dialog', { name: 'Add Material' });
  await material.getByLabel(/^Name/).fill('Hose bib');
  await material.getByLabel(/^Unit Price/).fill('18');
  await material.getByRole('button', { name: 'Add' }).click();
  await expect(material).toBeHidden();
  await page.getByRole('button', { name: 'Send Quote' }).click();
  await waitForMail(`caller.${tag}@home.test`, /^Your quote QT/);
  const received = (await receivedMail()).filter((m) => m.to && JSON.stringify(m.to).includes(`caller.${tag}@`));
  expect(received.map((m) => m.subject).filter((s) => /being prepared/.test(s ?? ''))).toEqual([]);

  await page.goto(`/admin/clients?q=${encodeURIComponent('916-555-4321')}`);
  await expect(page.getByText(`Casey Caller ${tag}`)).toBeVisible();
  await page.reload();
  await expect(page.getByText(`Casey Caller ${tag}`)).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'clients');
});

test('an expired quote offers "Ask for an updated quote"', async ({ page, request }) => {
  const tag = `${device()}${Date.now().toString(36)}`;
  const link = await sentQuoteLink(request, `Late ${tag}`, waitForMail);
  // The server's "today" cannot be moved from here: the page is shown the quote as it will read once
  // its date has passed (the API tests check that the server expires it and tells the owner once).
  await renderedByTheBrowser(page, /\/quote\/QT\d{8}\?token=/);
  await page.route(/\/api\/client-quotes\/QT\d{8}\?token=/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), expired: true, validUntil: '2026-01-31' } });
  });
  await page.route(/\/request-update$/, (route) => route.fulfill({ json: { alreadyAsked: false } }));
  await page.goto(link);
  await expect(page.getByText('This quote has expired')).toBeVisible();
  await expect(page.getByText('It was valid until January 31, 2026.', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept the quote' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Ask for an updated quote' }).click();
  await expect(page.getByText('Thanks, we have your request and will send you an updated quote.')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'client-quote-expired');
});
