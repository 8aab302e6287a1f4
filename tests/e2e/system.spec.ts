import { paths } from '#shared/paths';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, SHARED_STATE, test } from './support/fixtures';
import { refuseMailTo, waitForMail } from './support/mail';
import { apiToken, createQuoteRequest, signInAs } from './support/staff';

// Issue 32: the System page, with a relay that delivers and then one the mail server refuses. A red
// e-mail line is what every admin of the server sees: alone on its own server (SHARED_STATE).
test(
  'the System page shows the relay green, red with what to do when the mail server refuses, and green again after Send again',
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    test.setTimeout(180_000);
    const token = await apiToken(request);
    await signInAs(page, token);
    await page.goto(paths.admin.dashboard);
    // On a phone the menu opens from its button first.
    if (device() === 'phone') await page.getByRole('button', { name: 'Open the menu' }).click();
    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'System' }).click();
    await expect(page).toHaveURL(paths.admin.system);
    await expect(page.getByRole('heading', { name: 'System', level: 1 })).toBeVisible();

    const checks = page.getByRole('list', { name: 'System checks' });
    const mail = checks.getByRole('listitem', { name: /^E-mail: / });
    await expect(mail).toHaveAccessibleName('E-mail: OK');
    await expect(mail).toContainText(/Sent through SMTP 127\.0\.0\.1:\d+\./);
    for (const name of ['Reminders', 'Backups', 'Sending e-mail', 'Database', 'Disk space', 'This server'])
      await expect(checks.getByRole('listitem', { name: new RegExp(`^${name}: `) })).toBeVisible();
    await expect(checks.getByRole('listitem', { name: 'This server: OK' })).toContainText(/running for/);
    await expectNoAxeViolations(page);
    await screenshot(page, 'system-green');

    // A client whose mailbox the mail server refuses: their confirmation cannot be delivered.
    const name = `Refused ${device()} ${Date.now().toString(36)}`;
    const address = `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
    const undo = refuseMailTo(address);
    try {
      const created = await createQuoteRequest(request, name);
      await expect(async () => {
        await page.getByRole('button', { name: 'Check again' }).click();
        await expect(mail).toHaveAccessibleName('E-mail: Needs you', { timeout: 1000 });
      }).toPass({ timeout: 20_000 });
      await expect(mail).toContainText(/1 e-mail could not be sent, the oldest since .*Mailbox unavailable/);
      await expect(mail).toContainText('What to do: Check the mail server and its settings (SMTP_URL, MAIL_FROM)');
      await expect(page.getByRole('alert').filter({ hasText: /needs? you/ })).toBeVisible();
      // Red comes first, above the green lines.
      await expect(checks.getByRole('listitem').first()).toHaveAccessibleName('E-mail: Needs you');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );
      await expectNoAxeViolations(page);
      await screenshot(page, 'system-red');

      // The office opens the request, whose history shows the e-mail failing with "Send again".
      await page.goto(paths.admin.quoteRequest(created._id));
      await expect(page.getByRole('button', { name: 'Send again' }).first()).toBeVisible();
    } finally {
      undo();
    }
    // The mailbox accepts again: sent again from the request's history (the relay's own retry, on its
    // back-off, may get there first; either way it goes out once).
    await page.getByRole('button', { name: 'Send again' }).first().click();
    await waitForMail(address, /./);
    await page.goto(paths.admin.system);
    await expect(async () => {
      await page.getByRole('button', { name: 'Check again' }).click();
      await expect(mail).toHaveAccessibleName('E-mail: OK', { timeout: 1000 });
    }).toPass({ timeout: 20_000 });

    // Reloaded, the page reads the same.
    await page.reload();
    await expect(mail).toHaveAccessibleName('E-mail: OK');
  },
);
