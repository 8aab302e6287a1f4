import type { Locator } from '@playwright/test';
import { messages } from '#shared/messages';
import { pdfText } from '../helpers/pdf';
import { expectNoAxeViolations } from './support/axe';
import { photo } from './support/files';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, sentQuoteLink, signInAs } from './support/staff';

/**
 * Nothing (a toast) lies over the middle of this element: a tap there reaches it. On failure it names
 * what lies there instead.
 */
async function expectUncovered(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  expect(
    await locator.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (top !== null && (top === element || element.contains(top))) return 'uncovered';
      return top === null
        ? 'nothing'
        : `${top.tagName.toLowerCase()}.${top.getAttribute('class') ?? ''} ${top.textContent?.slice(0, 60)}`;
    }),
  ).toBe('uncovered');
}

test('request with a photo → accept → build and send a quote → client accepts by e-mail link → a job with its quote', async ({
  page,
  request,
  browser,
}) => {
  // 150 s of 180 on session 31's host: twice that.
  test.setTimeout(300_000);
  const tag = `${device()}${Date.now().toString(36)}`;
  const clientEmail = `journey.${tag}@home.test`;

  // The client asks for a quote, with a photo.
  await page.goto('/get-a-quote');
  for (const [label, value] of [
    ['First Name', 'Riley'],
    ['Last Name', `Journey ${tag}`],
    ['Email', clientEmail],
    ['Street', '915 L St'],
    ['City', 'Sacramento'],
    ['State', 'CA'],
    ['Zip', '95814'],
    ['Specifications', 'Rehang the side gate. Replace the kitchen faucet.'],
  ]) {
    await page.getByLabel(label!).fill(value!);
  }
  // Photos can be chosen once the app has taken over the page the server sent (Send is enabled then).
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await page.getByLabel('Upload Images').setInputFiles([await photo('gate.jpg', '#7a5')]);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page).toHaveURL(/\/get-a-quote\/success$/);
  const thanks = await waitForMail(clientEmail, /Quote Number/);
  const requestId = /quote-request-status\/([0-9a-f]{24})/.exec(thanks.text ?? '')![1]!;

  // Staff accept it and build the quote.
  const crew = await createEmployee(request, { fullName: `Jamie Carpenter ${tag}`, tags: ['Painting'] });
  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/quote-requests/${requestId}`);
  await page.getByRole('button', { name: 'Accept Quote Request' }).click();
  await page.getByRole('dialog', { name: 'Confirm Accept' }).getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText(messages.quoteAccepted)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Quote Builder' })).toBeVisible();
  const preview = page.getByRole('region', { name: 'Quote preview' });
  await expect(preview).toContainText('Quote No. TBD');
  await expect(page.getByLabel(/^Client name/)).toHaveValue(`Riley Journey ${tag}`);
  await expect(page.getByLabel(/^Project name/)).toHaveValue('Rehang the side gate');

  // An empty quote cannot go out.
  await page.getByRole('button', { name: 'Send Quote' }).click();
  await expect(page.getByText('Add at least one material or labor line')).toBeVisible();

  const addMaterial = async (name: string, price: string, qty: string) => {
    await page.getByRole('button', { name: 'Add Material' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Material' });
    await expect(dialog.getByLabel(/^Unit Price/)).toHaveValue('$0');
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByLabel(/^Unit Price/).fill(price);
    await dialog.getByLabel(/^Quantity/).fill(qty);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(dialog).toBeHidden();
  };
  await addMaterial('Gate hinge kit', '34.99', '2');
  await expect(page.getByText('Add at least one material or labor line')).toHaveCount(0);
  await addMaterial('Kitchen faucet', '129.00', '1');
  await addMaterial('Mistake line', '1', '1');
  await page.getByRole('button', { name: 'Delete material Mistake line' }).click();
  await page.getByRole('button', { name: 'Add Labor' }).click();
  const laborDialog = page.getByRole('dialog', { name: 'Add Labor' });
  await laborDialog.getByLabel('Description').fill('Rehang the side gate');
  await laborDialog.getByLabel(/^Hourly Rate/).fill('65');
  await laborDialog.getByLabel(/^Hours/).fill('3');
  await laborDialog.getByRole('button', { name: 'Add' }).click();
  await expect(laborDialog).toBeHidden();
  // A line is edited, not only deleted (issue 13.7).
  await page.getByRole('button', { name: 'Edit labor line 1' }).click();
  const editLabor = page.getByRole('dialog', { name: 'Edit Labor' });
  await expect(editLabor.getByLabel('Description')).toHaveValue('Rehang the side gate');
  await expect(editLabor.getByLabel(/^Hours/)).toHaveValue('3');
  // Labor is not taxed unless switched on (California's repair labor; Settings' default, issue 24.2).
  await expect(editLabor.getByLabel('Charge sales tax on this line')).not.toBeChecked();
  await editLabor.getByLabel(/^Hours/).fill('3.5');
  await editLabor.getByRole('button', { name: 'Save' }).click();
  await expect(editLabor).toBeHidden();
  await expect(preview).toContainText('Rehang the side gate');
  // 69.98 + 129.00 + 227.50 = 426.48; tax 8% on the $198.98 of materials: 15.92; total 442.40
  await expect(preview).toContainText('$426.48');
  await expect(preview).toContainText('Tax 8% on $198.98');
  // The draft survives a reload, and leaving with unsent lines asks first (issue 13.7).
  await page.reload();
  await expect(preview).toContainText('$442.40');
  await expect(preview).toContainText('Rehang the side gate');
  if (device() === 'phone') await page.getByRole('button', { name: 'Open the menu' }).click();
  await page.getByRole('link', { name: 'Jobs' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave this quote?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Cancel' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/admin/quote-requests/${requestId}$`));
  if (device() === 'phone') await page.keyboard.press('Escape');
  await expect(preview).toContainText('$15.92');
  await expect(preview).toContainText('$442.40');
  await expect(preview).not.toContainText('Mistake line');
  // A deposit asked on acceptance (issue 17): 10% of each part, $19.90 taxed (+ $1.59) and $22.75 not: $44.24.
  await page.getByRole('combobox', { name: 'Deposit on acceptance' }).click();
  await page.getByRole('option', { name: 'Percent of the total' }).click();
  await page.getByLabel('Deposit (%)').fill('10');
  await expect(page.getByText('$44.24 due when the client accepts')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'quote-builder');

  await page.getByRole('button', { name: 'Send Quote' }).click();
  await expect(page.getByText(messages.quoteSent)).toBeVisible();
  await expect(page.getByRole('heading', { name: /Sent Quote/ })).toBeVisible();
  await expect(page.getByText('Awaiting Client Response')).toBeVisible();
  await expect(page.getByText('Quote Sent', { exact: true })).toBeVisible();
  await screenshot(page, 'sent-quote');

  // The client's e-mail: right totals, a PDF, and the link.
  const mail = await waitForMail(clientEmail, /^Your quote QT\d{8}/);
  expect(mail.text).toContain('$442.40');
  expect(mail.text).toContain('Labor: Rehang the side gate');
  const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf');
  expect(pdf).toBeDefined();
  const text = await pdfText(pdf!.content);
  expect(text).toContain('$426.48');
  expect(text).toContain('$442.40');
  expect(text).toContain('Rehang the side gate');
  expect(text).toContain('Deposit due on acceptance: $44.24 (10% of the total)');
  const link = /http:\/\/127\.0\.0\.1:\d+\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.text ?? '')![0];

  // The client opens the link in their own browser and accepts.
  const clientContext = await browser.newContext({ viewport: page.viewportSize()! });
  const client = await clientContext.newPage();
  await client.goto(link);
  await expect(client.getByRole('heading', { name: 'Your Quote' })).toBeVisible();
  await expect(client.getByRole('region', { name: 'Quote preview' })).toContainText('$442.40');
  await expectNoAxeViolations(client);
  await screenshot(client, 'client-quote');
  await client.getByRole('button', { name: 'Accept the quote' }).click();
  // The client signs with their typed name (issue 14).
  await client.getByRole('button', { name: 'Accept and sign' }).click();
  await expect(client.getByText('Please type your full name to accept')).toBeVisible();
  await expect(client.getByText(/A deposit of \$44\.24 is due/)).toBeVisible();
  await client.getByLabel(/^Your full name/).fill(`Riley Journey ${tag}`);
  await client.getByRole('button', { name: 'Accept and sign' }).click();
  await expect(client).toHaveURL(/\/quote\/accepted$/);
  await expect(client.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  // Opening the link again: answered, nothing to press.
  await client.goto(link);
  await expect(client.getByText('You accepted this quote')).toBeVisible();
  await expect(client.getByRole('button', { name: 'Accept the quote' })).toHaveCount(0);
  await clientContext.close();
  await waitForMail('owner@handyman.test', /accepted by Riley/);

  // Staff see the answer, and the job with its quote.
  await page.reload();
  await expect(page.getByText('Accepted By Client')).toBeVisible();
  await page.goto('/admin/jobs');
  await page.getByLabel('Search by client').fill(`Journey ${tag}`);
  // The rows move when the search lands: read and tap once the list holds this job alone.
  await expect(page.getByRole('status').filter({ hasText: /^1 job$/ })).toBeVisible();
  // A table row on a desktop, a card on a phone (issue 13.9).
  const row = page.locator(device() === 'phone' ? 'li' : 'tr').filter({ hasText: `Journey ${tag}` });
  await expect(row).toContainText('915 L St, Sacramento, CA 95814');
  await expect(row).toContainText('Not assigned yet');
  await expectNoAxeViolations(page);
  await screenshot(page, 'admin-jobs');
  await row.getByRole('link', { name: 'View' }).click();
  await expect(page.getByRole('heading', { name: 'Job', exact: true })).toBeVisible();
  // The job's number carries a prefix like the others (issue 13.17).
  await expect(page.getByText(/^J[0-9A-F]{9}$/)).toBeVisible();
  // The job shows the client's photo and leads back to its request, which leads to the job (issue 13.12).
  await expect(page.getByRole('img', { name: 'Image 1' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open in Maps' })).toHaveAttribute(
    'href',
    /maps\.google\.com\/\?q=915%20L%20St/,
  );
  const jobUrl = page.url();
  await page.getByRole('link', { name: 'Open the request' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/quote-requests/${requestId}$`));
  await expect(page.getByRole('link', { name: 'Open in Maps' })).toBeVisible();
  await page.getByRole('link', { name: /^Open job J[0-9A-F]{9}$/ }).click();
  await expect(page).toHaveURL(jobUrl);
  await expect(page.getByText('Not Started', { exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Gate hinge kit' })).toBeVisible();
  await expect(page.getByText('$442.40')).toBeVisible();

  // Assign a worker: the list, a search, the tag filter, then confirm.
  await page.getByRole('button', { name: 'Assign' }).click();
  const assign = page.getByRole('dialog', { name: 'Assign New Worker' });
  // Every employee is listed before anything is typed (issue 13.10).
  await expect(assign.getByRole('button', { name: `Add Jamie Carpenter ${tag}` })).toBeVisible();
  await expect(page.locator('.mantine-Modal-overlay')).toHaveCount(1);
  await assign.getByLabel('Search workers').fill(`Jamie Carpenter ${tag}`);
  await expect(assign.getByRole('button', { name: `Add Jamie Carpenter ${tag}` })).toBeVisible();
  await assign.getByRole('group', { name: 'Skills' }).getByText('Tile', { exact: true }).click();
  await expect(assign.getByText('No employees found')).toBeVisible();
  await assign.getByRole('group', { name: 'Skills' }).getByText('Painting', { exact: true }).click();
  await assign.getByRole('group', { name: 'Skills' }).getByText('Tile', { exact: true }).click();
  await assign.getByRole('button', { name: `Add Jamie Carpenter ${tag}` }).click();
  await expect(assign.getByRole('button', { name: `Remove Jamie Carpenter ${tag}` })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'assign-worker');
  // On the job now: marked, and not offered again.
  await expect(assign.getByRole('button', { name: `Jamie Carpenter ${tag} (assigned)` })).toBeDisabled();
  await expect(assign.getByRole('button', { name: `Add Jamie Carpenter ${tag}` })).toHaveCount(0);
  await assign.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(messages.userAdded)).toBeVisible();
  await expect(page.getByText(`Jamie Carpenter ${tag}`, { exact: true })).toBeVisible();
  // The dialog's closing fade is over (on a slow host its overlay still lay over the page), the toast not.
  await expect(assign).toBeHidden();
  await expect(page.locator('.mantine-Modal-overlay')).toHaveCount(0);
  await expect(page.getByText(messages.userAdded)).toBeVisible();
  // With a toast showing, the page's primary action and the phone's menu button stay uncovered (issue 13.11).
  await expectUncovered(page.getByRole('button', { name: 'Start work' }));
  if (device() === 'phone') await expectUncovered(page.getByRole('button', { name: 'Open the menu' }));
  await page.getByRole('button', { name: 'Start work' }).click();
  await expect(page.getByText('In Progress', { exact: true })).toBeVisible();
  await expect(page.getByText('Job is now In Progress')).toBeVisible();
  await expectUncovered(page.getByRole('button', { name: 'Mark completed' }));
  await expectNoAxeViolations(page);
  await screenshot(page, 'admin-job');

  // The worker sees it on their phone, without prices, and finishes it.
  const crewContext = await browser.newContext({ viewport: { width: 375, height: 812 } });
  await crewContext.addInitScript(
    (t) => localStorage.setItem('jwt', t),
    await apiToken(request, crew.username, crew.password),
  );
  const crewPage = await crewContext.newPage();
  await crewPage.goto('/employee');
  const card = crewPage.getByText(`Riley Journey ${tag}`);
  await expect(card).toBeVisible();
  await expect(crewPage.getByText('915 L St, Sacramento, CA 95814')).toBeVisible();
  await expect(crewPage.getByText('$442.40')).toHaveCount(0);
  await expect(crewPage.getByRole('img', { name: 'Photo 1 of 1' })).toBeVisible();
  await expectNoAxeViolations(crewPage);
  await screenshot(crewPage, 'employee-dashboard');
  await crewPage.getByRole('button', { name: 'Mark Completed' }).click();
  // Finishing asks first (issue 15).
  await crewPage
    .getByRole('dialog', { name: 'Mark this job completed?' })
    .getByRole('button', { name: 'Mark Completed' })
    .click();
  await expect(crewPage.getByText('Marked Completed')).toBeVisible();
  await crewContext.close();
});

test('a tampered client link shows a clear page, and answering it is refused', async ({ page }) => {
  await page.goto('/quote/QT00000000?token=not-a-token');
  await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
  await expect(page.getByText(/This link is not valid/)).toBeVisible();
});

test('a client declines a quote with a reason, or asks a question first', async ({ page, request }) => {
  const tag = `${device()}${Date.now().toString(36)}`;
  await page.goto(await sentQuoteLink(request, `Decliner ${tag}`, waitForMail));
  await expect(page.getByRole('region', { name: 'Quote preview' })).toContainText('$135.00');
  await page.getByRole('button', { name: 'Decline' }).click();
  await page.getByLabel('Why are you declining? (optional)').fill('We decided to wait until spring.');
  await page.getByRole('button', { name: 'Decline the quote' }).click();
  await expect(page).toHaveURL(/\/quote\/declined$/);
  await expect(page.getByRole('heading', { name: 'Successfully declined' })).toBeVisible();
  await waitForMail('owner@handyman.test', new RegExp(`declined by Decliner ${tag}`));

  await page.goto(await sentQuoteLink(request, `Asker ${tag}`, waitForMail));
  await page.getByRole('button', { name: 'Request more info' }).click();
  await page.getByRole('button', { name: 'Send my question' }).click();
  await expect(page.getByText('Please write your question')).toBeVisible();
  await page.getByLabel(/^Your question/).fill('Are the boards pressure treated?');
  await page.getByRole('button', { name: 'Send my question' }).click();
  await expect(page.getByText('Thanks, we received your question')).toBeVisible();
  // Asking leaves the quote open (issue 14).
  await expect(page.getByRole('button', { name: 'Accept the quote' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Decline' })).toBeVisible();
  const notice = await waitForMail(
    'owner@handyman.test',
    new RegExp(`Question about quote QT\\d{8} from Asker ${tag}`),
  );
  expect(notice.text).toContain('Are the boards pressure treated?');
});
