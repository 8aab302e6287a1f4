import fs from 'node:fs';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, serverDatabase, SHARED_STATE, test } from './support/fixtures';
import { apiToken, signInAs } from './support/staff';

const stamp = () => Date.now().toString(36);

// It finds its actions among the latest 50 of the whole business: alone, after the others.
test(
  'the owner downloads a backup and every export, imports clients from a Jobber export after a preview, and the Activity page shows it all',
  { tag: SHARED_STATE },
  async ({ page }) => {
    test.skip(device() !== 'desktop', 'the office does this at a desk; the pages at 375 px below');
    test.setTimeout(180_000);
    const token = await apiToken(page.request);
    await signInAs(page, token);
    await page.goto('/admin/data');
    await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();

    // Backups: one made now, downloaded; a .tar.gz (gzip's magic number).
    await expect(
      page.getByText(
        /The server backs up the database every day into DATA_DIR\/backups, around 1 AM when it runs at night,/,
      ),
    ).toBeVisible();
    const [backup] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download a backup now' }).click(),
    ]);
    expect(backup.suggestedFilename()).toMatch(/^backup-.*\.tar\.gz$/);
    expect(fs.readFileSync((await backup.path())!).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    await expect(page.getByText('Backup downloaded')).toBeVisible();

    // Exports: a CSV that opens in a spreadsheet, and everything as JSON.
    const [clientsCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Clients' }).click(),
    ]);
    expect(clientsCsv.suggestedFilename()).toBe('clients.csv');
    expect(fs.readFileSync((await clientsCsv.path())!, 'utf8')).toContain(
      'Name,Email,Phone,Street,City,State,Zip,Notes',
    );
    const [everything] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Everything (JSON)' }).click(),
    ]);
    const doc = JSON.parse(fs.readFileSync((await everything.path())!, 'utf8'));
    expect(doc.format).toBe('handyman-export');
    expect(Object.keys(doc.tables)).toEqual(
      expect.arrayContaining(['clients', 'quote_requests', 'invoices', 'audit_log']),
    );

    // A bad file: a clear message, nothing changed.
    const fileInput = page.locator('input[type="file"]');
    await fileInput.setInputFiles({
      name: 'clients.xlsx',
      mimeType: 'text/csv',
      buffer: Buffer.from('PK\u0003\u0004 workbook'),
    });
    await expect(page.getByText('This file cannot be imported')).toBeVisible();
    await expect(page.getByText(/This is an Excel workbook \(\.xlsx\), not a CSV file/)).toBeVisible();
    await fileInput.setInputFiles({
      name: 'huge.csv',
      mimeType: 'text/csv',
      buffer: Buffer.alloc(6 * 1024 * 1024, 'a'),
    });
    await expect(page.getByText(/an import takes at most 5 MB .* Split it/)).toBeVisible();

    // A Jobber export: the preview first, then the import.
    const id = stamp();
    const jobber = [
      'Display Name,First Name,Last Name,Company Name,E-mails,Main Phone #s,Service Street 1,Service City,Service State,Service Zip code',
      `Rosa Imported ${id},Rosa,Imported,,rosa.${id}@home.test,(916) 555-0177,8 Vine St,Roseville,CA,95678`,
      `Rosa Imported ${id},Rosa,Imported,,ROSA.${id}@home.test,,19 Oak Ln,Roseville,CA,95661`,
      `Tom Imported ${id},Tom,Imported,,tom.${id}@home.test,916-555-0178,,,,`,
      `No Mail ${id},No,Mail,,,,,,,`,
    ].join('\r\n');
    await fileInput.setInputFiles({ name: 'jobber-clients.csv', mimeType: 'text/csv', buffer: Buffer.from(jobber) });
    await expect(page.getByText('Jobber', { exact: true })).toBeVisible();
    await expect(page.getByText(/4 rows → 2 clients: 2 new, 0 already on file/)).toBeVisible();
    await expect(page.getByText('E-mails → E-mail')).toBeVisible();
    // Numbered as the spreadsheet numbers it: the header is row 1.
    await expect(page.getByText(/Row 5: E-mail and phone are missing/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'The first clients in the file' })).toContainText(
      `Rosa Imported ${id}`,
    );
    await expectNoAxeViolations(page);
    await screenshot(page, 'your-data-preview');
    await page.getByRole('button', { name: 'Import 2 clients' }).click();
    await expect(page.getByText('Import finished')).toBeVisible();
    await expect(
      page.getByText('2 new clients, 0 clients merged, 2 addresses added; 1 row refused (below).'),
    ).toBeVisible();

    await page.goto('/admin/clients');
    await page.getByLabel('Search clients').fill(`rosa.${id}`);
    await expect(page.getByText(`Rosa Imported ${id}`)).toBeVisible();

    // The Activity page, freshly loaded: each of those actions, by the owner, from an address.
    await page.goto('/admin/activity');
    const activity = page.getByRole('region', { name: 'Activity' });
    for (const action of [
      'Imported clients',
      'Exported data (everything.json)',
      'Exported data (clients.csv)',
      'Downloaded a backup',
      'Signed in',
    ]) {
      await expect(activity.getByText(action).first()).toBeVisible();
    }
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Backups, exports and imports' }).click();
    await expect(activity.getByText('Signed in')).toHaveCount(0);
    await expect(activity.getByText('Imported clients').first()).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, 'activity');
  },
);

test('Activity and Your data read on a phone without sideways scrolling', async ({ page }) => {
  test.skip(device() !== 'phone', 'the phone layout');
  await signInAs(page, await apiToken(page.request));
  for (const [path, heading] of [
    ['/admin/activity', 'Activity'],
    ['/admin/data', 'Your data'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    if (path === '/admin/activity') await expect(page.getByText('Signed in').first()).toBeVisible();
    // On PostgreSQL the page says how to back up with pg_dump; on the embedded database it makes one.
    else if (serverDatabase() === 'postgres') await expect(page.getByText(/pg_dump --format=custom/)).toBeVisible();
    else {
      await expect(page.getByRole('button', { name: 'Download a backup now' })).toBeVisible();
      // This server takes none (BACKUP_EVERY_HOURS=0): the page does not promise one.
      await expect(page.getByText(/Automatic backups are off/)).toBeVisible();
      await expect(page.getByText(/No automatic backup yet/)).toHaveCount(0);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoAxeViolations(page);
    await screenshot(page, path === '/admin/activity' ? 'activity' : 'your-data');
  }
});
