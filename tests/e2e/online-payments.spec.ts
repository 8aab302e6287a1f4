import { formatDollars } from '#shared/money';
import { device, expect, screenshot, SHARED_STATE, testChangingSettings } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, depositInvoiceLink, sentQuoteLink, signInAs } from './support/staff';

// It turns online payments on for the shared server (a setting every other test reads): it runs alone,
// and turns them off again at the end.
const test = testChangingSettings;

/**
 * Issue 29 (decision 035): the client opens the deposit invoice the quote's acceptance sends, pays it
 * through the (fake) hosted page, and comes back to "Deposit paid"; the owner refunds $10 from the
 * invoice page; the invoice, the client's page and the refund receipt agree.
 */
test(
  'the client pays the deposit online through the hosted page; the owner refunds $10; the figures agree',
  { tag: SHARED_STATE },
  async ({ page, request, browser }) => {
    test.setTimeout(120_000);
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

      const name = `Online Client ${device()} ${Date.now().toString(36)}`;
      const email = `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
      const quote = new URL(
        await sentQuoteLink(request, name, waitForMail, {
          materials: [{ name: 'Deck boards', unitPrice: 12.5, quantity: 10 }],
          deposit: { kind: 'percent', value: 50 },
        }),
      );
      const link = await depositInvoiceLink(request, quote, name, waitForMail);
      const invoiceId = link.pathname.split('/').pop()!;

      // The client opens the deposit invoice and presses Pay.
      await page.goto(link.pathname + link.search);
      const pay = page.getByRole('button', { name: /^Pay the deposit of \$/ });
      await expect(pay).toBeVisible();
      const owed = Number((await pay.textContent())!.replace(/[^\d.]/g, ''));
      expect(owed).toBeGreaterThan(10);
      await screenshot(page, 'online-pay-deposit', { fullPage: true });
      await pay.click();
      // Stripe's hosted page (the fake): Pay, then back to our page.
      await expect(page.getByRole('heading', { name: `Pay ${formatDollars(owed)}` })).toBeVisible();
      await page.getByRole('button', { name: `Pay ${formatDollars(owed)}` }).click();
      await expect(page).toHaveURL(new RegExp(`/invoice/${invoiceId}\\?token=.+&checkout=cs_test_`));
      await expect(page.getByRole('status').filter({ hasText: 'Deposit paid' })).toBeVisible();
      await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
      await expect(page.getByRole('button', { name: /^Pay the deposit/ })).toHaveCount(0);
      await screenshot(page, 'online-deposit-paid', { fullPage: true });
      await waitForMail(email, /^Receipt for invoice INV-/);

      // The owner refunds $10 from the invoice page.
      const admin = owner;
      await admin.goto(`/admin/invoices/${invoiceId}`);
      const payments = admin.getByRole('list', { name: 'Payments' });
      await expect(payments).toContainText('card online');
      await expect(payments).toContainText('Stripe fee');
      await admin.getByRole('button', { name: 'Refund' }).click();
      await admin.getByLabel('Amount to give back').fill('10');
      await admin.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
      await expect(payments).toContainText('-$10.00');
      await expect(admin.getByText('Balance due: $10.00')).toBeVisible();
      await screenshot(admin, 'online-refund', { fullPage: true });
      await waitForMail(email, /^Refund for invoice INV-/);

      // The client's page and the office agree: $10 owed again, and online payment offered for it.
      const staff = await (await request.get(`/api/invoices/${invoiceId}`, { headers })).json();
      expect(staff).toMatchObject({ balance: 10, paid: owed - 10, status: 'Partially Paid' });
      await page.goto(link.pathname + link.search);
      await expect(page.getByRole('button', { name: 'Pay the deposit of $10.00' })).toBeVisible();
    } finally {
      await office.close();
      await request.delete('/api/settings/online-payments', { headers });
    }
  },
);
