import type { Page } from '@playwright/test';
import { formatDollars } from '#shared/money';
import { device, expect, screenshot, SHARED_STATE, testChangingSettings } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, sentQuoteLink, signInAs } from './support/staff';

// It turns online payments on for the shared server (a setting every other test reads) and counts the
// dashboard's and Reports' totals: it runs alone, and turns online payments off again at the end.
const test = testChangingSettings;

/** A dollar figure as the screens print it ("$1,234.56"), in cents. */
const centsOf = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);

/** The dashboard's Revenue and Outstanding tiles, read off the screen. */
async function dashboardFigures(owner: Page) {
  await owner.goto('/admin');
  const tile = async (label: string) => {
    const button = owner.getByRole('button', { name: new RegExp(`^${label}: \\$`) });
    await expect(button).toBeVisible();
    return centsOf(/: (\$[\d,.]+)\./.exec((await button.getAttribute('aria-label'))!)![1]!);
  };
  return { revenue: await tile('Revenue'), outstanding: await tile('Outstanding') };
}

/** Reports' revenue, every month it lists added up (its screen-reader list carries the chart's figures). */
async function reportedRevenue(owner: Page) {
  await owner.goto('/admin/reports');
  const months = owner.getByRole('figure', { name: 'Revenue by month' }).getByRole('listitem');
  await expect(months.first()).toBeAttached();
  return (await months.allTextContents()).reduce((sum, line) => sum + centsOf(line.split(': ')[1]!), 0);
}

/** Stripe's hosted page (the fake): the amount it asks, then Pay. */
async function payOnHostedPage(page: Page, cents: number) {
  await expect(page.getByRole('heading', { name: `Pay ${formatDollars(cents / 100)}` })).toBeVisible();
  await page.getByRole('button', { name: `Pay ${formatDollars(cents / 100)}` }).click();
}

/** The link to the client's own page that every e-mail to them carries. */
const pageLinkIn = (text: string | false | undefined) =>
  new URL(/https?:\/\/\S+\/your-page\/\S+/.exec(String(text))![0]);

/**
 * Issue 29, done when: the client opens their page from an e-mail, sees the quote, accepts and pays the
 * deposit through the (fake) hosted page, comes back to "Deposit paid"; later pays the final invoice from
 * their page; the owner refunds $10; every figure (invoice, client page, dashboard, Reports, receipts)
 * agrees. Decisions 035 and 036.
 */
test(
  'the client accepts and pays the deposit, later pays the final invoice from their page; the owner refunds $10; every figure agrees',
  { tag: SHARED_STATE },
  async ({ page, request, browser }) => {
    test.setTimeout(360_000);
    const headers = { authorization: `Bearer ${await apiToken(request)}` };
    const key = process.env.E2E_FAKE_STRIPE_KEY!;
    const office = await browser.newContext({ viewport: test.info().project.use.viewport ?? null });
    try {
      // The owner pastes the restricted key on Settings, saves, and tests the connection.
      const owner = await office.newPage();
      await signInAs(owner, await apiToken(request));
      await owner.goto('/admin/settings');
      await expect(owner.getByRole('heading', { name: 'Online payments' })).toBeVisible();
      await expect(owner.getByText('Online payment is off')).toBeVisible();
      await owner.getByLabel('Restricted key', { exact: true }).fill(key);
      await owner.getByRole('button', { name: 'Save online payments' }).click();
      await expect(owner.getByText('Online payment is on')).toBeVisible();
      await expect(owner.getByLabel('Replace the restricted key')).toHaveValue('');
      await owner.getByRole('button', { name: 'Test the connection' }).click();
      await expect(owner.getByText('Stripe answered: the key works')).toBeVisible();
      await owner.getByRole('heading', { name: 'Online payments' }).scrollIntoViewIfNeeded();
      await screenshot(owner, 'settings-online-payments', { fullPage: false });
      const before = { ...(await dashboardFigures(owner)), reports: await reportedRevenue(owner) };

      // The office sends a quote of $135.00 (labor, no sales tax) asking a 50% deposit.
      const name = `Online Client ${device()} ${Date.now().toString(36)}`;
      const email = `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
      const quoteLink = await sentQuoteLink(request, name, waitForMail, {
        projectName: 'Deck repair',
        materials: [],
        labor: [{ hourlyRate: 90, hours: 1.5, taxable: false }],
        deposit: { kind: 'percent', value: 50 },
      });
      const quoteNumber = /QT\d{8}/.exec(quoteLink)![0];
      const quoteMail = await waitForMail(email, /^Your quote QT/);

      // The client opens their page from the quote's e-mail and finds the quote there.
      const own = pageLinkIn(quoteMail.text);
      await page.goto(own.pathname + own.search);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await page.getByRole('link', { name: `Open quote ${quoteNumber} to answer it` }).click();
      await expect(page.getByRole('heading', { name: 'Your Quote' })).toBeVisible();
      // Labor only: no empty Materials section on what the client reads.
      await expect(page.getByRole('region', { name: 'Quote preview' })).toContainText('1.5 h @ $90.00/h');
      await expect(page.getByRole('region', { name: 'Quote preview' })).not.toContainText('Materials');
      await page.getByRole('button', { name: 'Accept the quote' }).click();
      await expect(page.getByText('A deposit of $67.50 is due when you accept: you pay it next')).toBeVisible();
      await page.getByLabel('Your full name').fill(name);
      await screenshot(page, 'accept-and-pay-deposit', { fullPage: true });
      await page.getByRole('button', { name: 'Accept and pay the deposit' }).click();

      // Straight to the hosted page for the deposit, and back to "Deposit paid".
      await payOnHostedPage(page, 6750);
      await expect(page).toHaveURL(/\/invoice\/[\w-]+\?token=.+&checkout=cs_test_/);
      await expect(page.getByRole('status').filter({ hasText: 'Deposit paid' })).toBeVisible();
      await expect(page.getByRole('button', { name: /^Pay the deposit/ })).toHaveCount(0);
      await screenshot(page, 'online-deposit-paid', { fullPage: true });
      const depositReceipt = await waitForMail(email, /^Receipt for invoice INV-/);
      expect(depositReceipt.text).toContain('Received $67.50');
      expect(depositReceipt.text).toMatch(/Balance due:\s+\$0\.00/);

      // The work is done; the office sends the final invoice (its screens have tests of their own).
      const { jobs } = await (
        await request.get(`/api/jobs?page=1&limit=5&search=${encodeURIComponent(name)}`, { headers })
      ).json();
      const jobId = jobs[0]._id as string;
      for (const status of ['In Progress', 'Completed'])
        expect((await request.patch(`/api/jobs/${jobId}/status`, { headers, data: { status } })).status()).toBe(200);
      const draft = await request.post(`/api/jobs/${jobId}/invoice`, { headers });
      expect(draft.status(), await draft.text()).toBe(201);
      const finalId = (await draft.json())._id as string;
      expect((await request.post(`/api/invoices/${finalId}/send`, { headers })).status()).toBe(200);
      const invoiceMail = await waitForMail(email, /^Invoice INV-/);
      const finalNumber = /INV-[\d-]+/.exec(invoiceMail.subject!)![0];

      // Later, from the page link in that e-mail: Pay on the final invoice, right on their page.
      const later = pageLinkIn(invoiceMail.text);
      await page.goto(later.pathname + later.search);
      await expect(page.getByText('You owe $67.50')).toBeVisible();
      const finalItem = page.getByRole('listitem').filter({ hasText: `Invoice ${finalNumber}` });
      await expect(finalItem).toContainText('Total $135.00 · balance $67.50');
      await screenshot(page, 'client-page-pay', { fullPage: true });
      await finalItem.getByRole('button', { name: 'Pay $67.50' }).click();
      await payOnHostedPage(page, 6750);
      await expect(page).toHaveURL(new RegExp(`/invoice/${finalId}\\?token=.+&checkout=cs_test_`));
      await expect(page.getByRole('status').filter({ hasText: 'Invoice paid' })).toBeVisible();
      const finalReceipt = await waitForMail(email, new RegExp(`^Receipt for invoice ${finalNumber}`));
      expect(finalReceipt.text).toContain('Received $67.50');

      // The owner refunds $10 from the invoice page.
      await owner.goto(`/admin/invoices/${finalId}`);
      const payments = owner.getByRole('list', { name: 'Payments' });
      await expect(payments).toContainText('card online');
      await expect(payments).toContainText('Stripe fee');
      await owner.getByRole('button', { name: 'Refund' }).click();
      await owner.getByLabel('Amount to give back').fill('10');
      await owner.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
      await expect(payments).toContainText('-$10.00');
      await expect(owner.getByText('Balance due: $10.00')).toBeVisible();
      await screenshot(owner, 'online-refund', { fullPage: true });
      const refundReceipt = await waitForMail(email, new RegExp(`^Refund for invoice ${finalNumber}`));
      expect(refundReceipt.text).toContain('Refunded $10.00');
      expect(refundReceipt.text).toMatch(/Balance due:\s+\$10\.00/);

      // The client's page: $10 owed again, the refund among the receipts, Pay offered for it.
      await page.goto(later.pathname + later.search);
      await expect(page.getByText('You owe $10.00')).toBeVisible();
      await expect(finalItem).toContainText('Total $135.00 · balance $10.00');
      await expect(finalItem.getByRole('list', { name: `Payments on ${finalNumber}` })).toContainText(
        'Received $67.50 by card online',
      );
      await expect(finalItem.getByRole('list', { name: `Payments on ${finalNumber}` })).toContainText(
        'Refunded $10.00',
      );
      await expect(finalItem.getByRole('button', { name: 'Pay $10.00' })).toBeVisible();
      const depositItem = page.getByRole('listitem').filter({ hasText: 'Deposit invoice' });
      await expect(depositItem).toContainText('balance $0.00');
      await screenshot(page, 'client-page-after-refund', { fullPage: true });

      // The office's figures: $135.00 received less $10.00 given back; $10.00 still owed.
      const after = { ...(await dashboardFigures(owner)), reports: await reportedRevenue(owner) };
      expect(after.revenue - before.revenue).toBe(12_500);
      expect(after.outstanding - before.outstanding).toBe(1_000);
      expect(after.reports - before.reports).toBe(12_500);
    } finally {
      await office.close();
      await request.delete('/api/settings/online-payments', { headers });
    }
  },
);
