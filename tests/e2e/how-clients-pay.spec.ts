import fs from 'node:fs';
import { todayIn } from '#shared/dates';
import { messages } from '#shared/messages';
import { pdfText } from '../helpers/pdf';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, SHARED_STATE, testChangingSettings } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, sentQuoteLink, signInAs } from './support/staff';

// It changes the settings every other test reads: it runs alone, after the others, and its fixture
// puts the settings back, even after a timeout.
const test = testChangingSettings;

const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;

/**
 * Issue 24, items 3 and 5: the owner sets how clients pay; a quote asks a 25% deposit; the client sees
 * it under the total (following the option they tick), accepts, and follows the links to the signed
 * PDF and the deposit invoice, which (with its e-mail and PDF) says how to pay; the chip reads the
 * client's words as the office records payments.
 */
test(
  'how clients pay, set on Settings, reaches the deposit request; the client sees the deposit before accepting and both documents after',
  { tag: SHARED_STATE },
  async ({ page, request, browser }) => {
    test.setTimeout(240_000);
    const project = test.info().project;
    const headers = { authorization: `Bearer ${await apiToken(request)}` };
    const office = await browser.newContext({ viewport: project.use.viewport ?? null });
    try {
      // The owner fills in "How clients pay" on Settings.
      const admin = await office.newPage();
      await signInAs(admin, await apiToken(request));
      await admin.goto('/admin/settings');
      await expect(admin.getByRole('heading', { name: 'How clients pay' })).toBeVisible();
      await admin.getByLabel('Make checks payable to').fill('Sac Handyman LLC');
      await admin.getByLabel('Mailing address for checks').fill('PO Box 4410\nSacramento, CA 95812');
      await admin.getByLabel('Zelle or bank transfer details').fill('Zelle: pay@sachandyman.example');
      await admin.getByLabel('Clients may pay by card over the phone').check();
      // A card phone that is not a phone number is refused on the spot.
      const cardPhone = admin.getByLabel('Phone for card payments');
      const save = admin.getByRole('button', { name: 'Save Settings' });
      await cardPhone.fill('call me');
      await save.click();
      await expect(admin.getByText('Enter a phone number, e.g. (916) 555-0142')).toBeVisible();
      await cardPhone.fill('(916) 555-0177');
      await save.click();
      await expect(admin.getByText(messages.settingsSaved)).toBeVisible();
      await admin.reload();
      await expect(admin.getByLabel('Mailing address for checks')).toHaveValue('PO Box 4410\nSacramento, CA 95812');
      await expect(admin.getByLabel('Phone for card payments')).toHaveValue('(916) 555-0177');
      await admin.getByRole('heading', { name: 'How clients pay' }).scrollIntoViewIfNeeded();
      await screenshot(admin, 'settings-how-clients-pay', { fullPage: false });

      // A quote of $125 with a $40 option, asking 25% on acceptance.
      const name = `Deposit Client ${device()} ${Date.now().toString(36)}`;
      const link = new URL(
        await sentQuoteLink(request, name, waitForMail, {
          materials: [
            { name: 'Deck boards', unitPrice: 12.5, quantity: 10 },
            { name: 'Deck stain', unitPrice: 40, quantity: 1, optional: true },
          ],
          deposit: { kind: 'percent', value: 25 },
        }),
      );

      // The client reads the deposit under the total, before the Accept button; it follows the option.
      await page.goto(link.pathname + link.search);
      const preview = page.getByRole('region', { name: 'Quote preview' });
      const deposit = preview.getByText('Deposit due on acceptance:');
      // $125 + 8% = $135; 25% of it: $33.75.
      await expect(deposit.locator('..')).toContainText('$33.75');
      const total = preview.getByText('Total', { exact: true });
      const accept = page.getByRole('button', { name: 'Accept the quote' });
      const [totalBox, depositBox, acceptBox] = await Promise.all([
        total.boundingBox(),
        deposit.boundingBox(),
        accept.boundingBox(),
      ]);
      expect(depositBox!.y).toBeGreaterThan(totalBox!.y);
      expect(acceptBox!.y).toBeGreaterThan(depositBox!.y);
      await page.getByRole('checkbox', { name: /Deck stain/ }).check();
      // $165 + 8% = $178.20; 25%: $44.55.
      await expect(deposit.locator('..')).toContainText('$44.55');
      await expectNoAxeViolations(page);
      await screenshot(page, 'client-quote-deposit');

      await accept.click();
      await expect(page.getByText('A deposit of $44.55 is due when you accept')).toBeVisible();
      await page.getByLabel(/^Your full name/).fill(name);
      await page.getByRole('button', { name: 'Accept and sign' }).click();
      await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
      const depositLink = page.getByRole('link', { name: 'View your deposit invoice' });
      await expect(depositLink).toBeVisible();
      await expectNoAxeViolations(page);
      await screenshot(page, 'quote-accepted-documents');

      // The signed quote's PDF.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download the signed quote' }).click(),
      ]);
      const signed = await pdfText(fs.readFileSync((await download.path())!));
      expect(signed).toContain(`Typed signature: ${name}`);
      expect(signed).toContain('Deck stain');

      // The deposit e-mail: titled and worded as a deposit, with how to pay.
      const mail = await waitForMail(emailOf(name), /^Deposit invoice INV-\d{4}-\d{4} for quote QT\d{8}/);
      const number = /INV-\d{4}-\d{4}/.exec(mail.subject!)![0];
      expect(mail.text).toContain('This is the deposit that books your work');
      expect(mail.text).toContain('Deposit due $44.55');
      expect(mail.text).toContain('How to pay:');
      expect(mail.text).toContain('Payable to Sac Handyman LLC');
      expect(mail.text).toContain('Zelle: pay@sachandyman.example');
      expect(mail.text).toContain('Call (916) 555-0177');
      expect(mail.text).toContain(`Please include ${number} with your payment`);

      // The deposit invoice's page (from the link after accepting): the client's words, how to pay, its PDF.
      await depositLink.click();
      await expect(page.getByRole('heading', { name: `Deposit invoice ${number}` })).toBeVisible();
      await expect(page.getByText('Due', { exact: true })).toBeVisible();
      const howToPay = page.getByRole('region', { name: 'How to pay' });
      await expect(howToPay).toContainText('Payable to Sac Handyman LLC');
      await expect(howToPay).toContainText('Mail to: PO Box 4410');
      await expect(howToPay).toContainText('Zelle: pay@sachandyman.example');
      await expect(howToPay).toContainText('Call (916) 555-0177');
      await expect(page.getByLabel('Totals')).toContainText('$44.55');
      await expectNoAxeViolations(page);
      await screenshot(page, 'client-deposit-invoice');
      const pdf = await pdfText(
        await (
          await page.request.get((await page.getByRole('link', { name: 'Download the PDF' }).getAttribute('href'))!)
        ).body(),
      );
      expect(pdf).toContain('Deposit invoice');
      expect(pdf).toContain('How to pay');
      expect(pdf).toContain('Payable to Sac Handyman LLC');
      expect(pdf).toContain('Call (916) 555-0177');

      // The office takes part of it, then the rest: the chip reads the client's words.
      const invoiceId = new URL(page.url()).pathname.split('/').pop()!;
      const pay = (amount: number) =>
        request.post(`/api/invoices/${invoiceId}/payments`, {
          headers,
          data: { method: 'check', paidOn: todayIn('America/Los_Angeles'), amount },
        });
      expect((await pay(20)).status()).toBe(201);
      await page.reload();
      await expect(page.getByText('Partly paid', { exact: true })).toBeVisible();
      await expect(page.getByText('Partially Paid')).toHaveCount(0);
      expect((await pay(24.55)).status()).toBe(201);
      await page.reload();
      await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
      await expect(page.getByRole('region', { name: 'How to pay' })).toHaveCount(0);
    } finally {
      await office.close();
    }
  },
);
