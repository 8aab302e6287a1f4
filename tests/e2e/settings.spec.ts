import { messages } from '#shared/messages';
import type { SettingsView } from '#shared/schemas/settings';
import { expectNoAxeViolations } from './support/axe';
import { photo } from './support/files';
import { device, expect, screenshot, SHARED_STATE, testChangingSettings } from './support/fixtures';
import { apiToken, signInAs } from './support/staff';

// Every other test expects the seeded business: these run alone, after the others, and their
// fixture puts the settings back as they were, even after a timeout.
const test = testChangingSettings;

test(
  'the owner changes the business on Settings; a freshly loaded public page shows it',
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    await signInAs(page, await apiToken(request));
    const name = `Capitol Fix ${device()}`;
    await page.goto('/admin/settings');
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Business name')).toHaveValue('Sac Handyman Services');

    // A bad address: the save is refused on the spot, the field says why and has the focus.
    await page.getByLabel('Send owner notices to').fill('office@gmail');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText(messages.emailInvalid)).toBeVisible();
    await expect(page.getByLabel('Send owner notices to')).toBeFocused();
    await page.getByLabel('Send owner notices to').fill('office@capitolfix.test');

    await page.getByLabel('Business name').fill(name);
    await page.getByLabel('Headline').fill('Roseville, Folsom and Placer County');
    await page.getByLabel('Sales tax rate (%)').fill('8.75');
    // Reminders for unanswered quotes: at most two (issue 14).
    await page.getByLabel('Remind unanswered quotes after (days)').fill('3, 7, 10');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('At most two reminders')).toBeVisible();
    await page.getByLabel('Remind unanswered quotes after (days)').fill('2, 5');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText(messages.settingsSaved)).toBeVisible();
    await expect(page.getByRole('banner')).toContainText(name);

    await page.locator('input[type="file"]').setInputFiles(await photo('logo.jpg', '#0b3372'));
    await expect(page.getByText(messages.logoSaved)).toBeVisible();
    await expect(page.getByRole('img', { name: `${name} logo` })).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, 'admin-settings');

    // Reloaded, the page shows what was stored.
    await page.reload();
    await expect(page.getByLabel('Business name')).toHaveValue(name);
    await expect(page.getByLabel('Sales tax rate (%)')).toHaveValue('8.75');
    await expect(page.getByLabel('Remind unanswered quotes after (days)')).toHaveValue('2, 5');

    await page.goto('/');
    await expect(page).toHaveTitle(`${name} — Handyman in Sacramento`);
    await expect(page.getByText('Proudly Serving Roseville, Folsom and Placer County')).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText(name);
    if (device() === 'desktop') {
      const header = page.getByRole('banner');
      await expect(header).toContainText(name);
      await expect(header.locator('img[src^="/media/logo/"]')).toBeVisible();
    }
    await screenshot(page, 'home-after-settings');
  },
);

test(
  "the owner chooses whether the crew sees prices and the tax defaults; the materials are the price book's",
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    await signInAs(page, await apiToken(request));
    await page.goto('/admin/settings');
    await page.getByLabel('The crew sees prices').check();
    // Sales tax (issue 24.2): materials taxed and labor not by default; labor taxed here.
    await expect(page.getByLabel('Tax materials')).toBeChecked();
    await expect(page.getByLabel('Tax labor')).not.toBeChecked();
    await page.getByLabel('Tax labor').check();
    await page.getByLabel('Remind unpaid invoices after the due date (days)').fill('10, 30');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText(messages.settingsSaved)).toBeVisible();

    await page.reload();
    await expect(page.getByLabel('The crew sees prices')).toBeChecked();
    await expect(page.getByLabel('Tax labor')).toBeChecked();
    const headers = { authorization: `Bearer ${await apiToken(request)}` };
    const saved = (await (await request.get('/api/settings', { headers })).json()) as SettingsView;
    expect(saved).toMatchObject({ materialsTaxable: true, laborTaxable: true });
    expect(saved.crewSeesPrices).toBe(true);
    expect(saved.invoiceReminderDays).toEqual([10, 30]);
    await expectNoAxeViolations(page);
    await screenshot(page, 'settings-crew');
    // The crew's materials list is kept in the price book (decision 032).
    await page.getByRole('link', { name: 'price book', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Price book', level: 1 })).toBeVisible();
  },
);
