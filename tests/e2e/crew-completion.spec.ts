import type { Page } from '@playwright/test';
import { pdfImages, pdfText } from '../helpers/pdf';
import { expectNoAxeViolations } from './support/axe';
import { photo } from './support/files';
import { DEPLOY, device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, signInAs, soldJobFor } from './support/staff';
import fs from 'node:fs';
import path from 'node:path';
import { paths } from '#shared/paths';
import { projectRoot } from '../../src/server/paths';
import { futureDate } from '../helpers/dates';

const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;

/** Draws a signature-like scribble on the pad with the pointer. */
async function scribble(page: Page) {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height * 0.6);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++)
    await page.mouse.move(box.x + 20 + i * 20, box.y + box.height * (i % 2 ? 0.3 : 0.7), { steps: 3 });
  await page.mouse.up();
}

const saveState = (page: Page) => page.getByRole('status', { name: 'Save state' });

test('the crew completes a job on a phone with the signal cut midway: checklist, timer, photos, a material, notes, a signature; the report reaches the client and the office sees it all', async ({
  page,
  request,
  browser,
}) => {
  test.skip(device() !== 'phone', 'the crew works on a phone; the office part runs at 1280 px below');
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);
  const name = `Crew Client ${tag}`;
  const worker = await createEmployee(request, { fullName: `Robin Crew ${tag}` });
  const jobId = await soldJobFor(request, name, worker.id, waitForMail);

  // From My work on the phone; then the job's own address, loaded fresh.
  await signInAs(page, await apiToken(request, worker.username, worker.password));
  await page.goto('/employee');
  await page.getByRole('link', { name: 'Open job' }).click();
  await expect(page).toHaveURL(`/employee/jobs/${jobId}`);
  await page.reload();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByText('42 Capitol Mall, Sacramento, CA 95814')).toBeVisible();
  await page.getByRole('button', { name: 'Start work' }).click();
  await expect(page.getByText('In Progress').first()).toBeVisible();
  await expect(saveState(page)).toContainText('Saved');

  // The checklist starts from the sold quote.
  const boards = page.getByRole('checkbox', { name: 'Deck boards × 10' });
  await boards.check();
  await page.getByRole('button', { name: 'Start timer' }).click();
  await expect(page.getByRole('button', { name: /Stop timer/ })).toBeVisible();
  await page.getByLabel('Add before photos').setInputFiles(await photo('before.jpg', '#a63'));
  await expect(page.getByRole('img', { name: 'Before photo 1' })).toBeVisible();
  await expect(saveState(page)).toContainText('Saved', { timeout: 15_000 });

  // The signal goes: the page keeps working and keeps what is entered.
  await page.context().setOffline(true);
  await page.getByLabel('Add an item').fill('Haul away the old boards');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Haul away the old boards' }).check();
  await page.getByRole('combobox', { name: 'Material' }).fill('Deck screws');
  await page.getByRole('textbox', { name: 'Quantity' }).fill('2');
  await page.getByRole('heading', { name: 'Materials used' }).click(); // closes the suggestions
  await page.getByRole('button', { name: 'Add material' }).click();
  await expect(page.getByText('Deck screws × 2')).toBeVisible();
  await page.getByLabel('Notes for the office').fill('Two joists are soft; worth a quote.');
  await page.getByLabel('Add after photos').setInputFiles(await photo('after.jpg', '#36a'));
  await expect(page.getByRole('img', { name: 'After photo 1' })).toBeVisible();
  await expect(saveState(page)).toContainText('Waiting for signal', { timeout: 15_000 });
  await screenshot(page, 'crew-job-offline');

  // A reload with the signal still bad (the page loads, the API does not answer): nothing is lost.
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await page.context().setOffline(false);
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Haul away the old boards' })).toBeChecked();
  await expect(page.getByText('Deck screws × 2')).toBeVisible();
  await expect(page.getByLabel('Notes for the office')).toHaveValue('Two joists are soft; worth a quote.');
  await expect(page.getByRole('img', { name: 'After photo 1' })).toBeVisible();
  await expect(saveState(page)).toContainText('Waiting for signal');

  // The signal returns: the queued changes are sent, in order, once.
  await page.unroute('**/api/**');
  await expect(saveState(page)).toContainText('Saved', { timeout: 20_000 });
  await expect(page.getByRole('checkbox', { name: 'Deck boards × 10' })).toBeChecked();

  // Sign-off and completion.
  await page.getByRole('button', { name: /Stop timer/ }).click();
  await scribble(page);
  await page.getByLabel("Client's printed name").fill(name);
  await page.getByRole('button', { name: 'Save signature' }).click();
  await expect(page.getByText(`Signed by ${name}`)).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'crew-job-signed');
  await page.getByRole('button', { name: 'Complete job' }).click();
  await page.getByRole('dialog', { name: 'Complete this job?' }).getByRole('button', { name: 'Complete job' }).click();
  await expect(page.getByText('This job is Completed')).toBeVisible({ timeout: 15_000 });
  await expect(saveState(page)).toContainText('Saved');

  // The report, to the client and the owner: what was done, with the photos and the signature.
  const mail = await waitForMail(emailOf(name), /^Your job report/);
  const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf')!.content;
  const text = await pdfText(pdf);
  for (const expected of [
    'Job report',
    'Deck boards × 10',
    'Haul away the old boards',
    `Robin Crew ${tag}`,
    'Deck screws',
    `Signed by ${name}`,
  ])
    expect(text).toContain(expected);
  // The notes for the office stay with the office: not on the client's report.
  expect(text).not.toContain('Two joists are soft; worth a quote.');
  const images = await pdfImages(pdf);
  expect(images.filter((i) => i.width === 800 && i.height === 600)).toHaveLength(2);
  expect(images.length).toBe(3); // and the signature
  await waitForMail('owner@', /completed/);

  // The office, at a desk: the whole record on the job page, and the material to price.
  const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const office = await desk.newPage();
  await signInAs(office, await apiToken(request));
  await office.goto(`/admin/jobs/${jobId}`);
  await expect(office.getByRole('heading', { name: 'Work record' })).toBeVisible();
  const checklist = office.getByRole('list', { name: 'Checklist' });
  await expect(checklist).toContainText('Deck boards × 10');
  await expect(checklist).toContainText('Haul away the old boards');
  await expect(office.getByRole('list', { name: 'Time per worker' })).toContainText(`Robin Crew ${tag}`);
  await expect(office.getByText('Two joists are soft; worth a quote.')).toBeVisible();
  await expect(office.getByRole('img', { name: 'before photo 1' })).toBeVisible();
  await expect(office.getByRole('img', { name: 'after photo 1' })).toBeVisible();
  await expect(office.getByRole('img', { name: `Signature of ${name}` })).toBeVisible();
  // A typed price counts without a button to press: saved when typing pauses.
  await office.getByLabel('Unit price of Deck screws').fill('0.45');
  await expect(office.getByText('Saved the price of Deck screws')).toBeVisible();
  await expect(office.getByRole('region', { name: 'Materials used' })).toContainText('$0.90');
  const href = await office.getByRole('link', { name: 'Job report (PDF)' }).getAttribute('href');
  const report = await office.request.get(href!);
  expect(report.headers()['content-type']).toBe('application/pdf');
  await expectNoAxeViolations(office);
  await screenshot(office, 'office-job-record', { device: 'desktop' });
  await desk.close();
});

test('the crew app opens without signal from a cold reload: My work and the job the worker opened, with the visit notes and request photos; a change made offline arrives on reconnect', async ({
  page,
  request,
}) => {
  test.skip(device() !== 'phone', 'the crew app is for the phone');
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const name = `Offline Client ${tag}`;
  const worker = await createEmployee(request, { fullName: `Sam Offline ${tag}` });
  const picture = (await photo('porch.jpg', '#963')).buffer.toString('base64');
  const jobId = await soldJobFor(
    request,
    name,
    worker.id,
    waitForMail,
    {},
    { images: [`data:image/jpeg;base64,${picture}`] },
  );
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const booked = await request.post(`/api/jobs/${jobId}/visits`, {
    headers: admin,
    data: {
      date: futureDate(1),
      start: '08:00',
      end: '10:00',
      workerIds: [worker.id],
      notes: 'Gate code 4321',
      confirm: true,
    },
  });
  expect(booked.status()).toBe(201);

  // Online once: My work, then the job. The crew app's worker takes charge of the crew area.
  await signInAs(page, await apiToken(request, worker.username, worker.password));
  await page.goto('/employee');
  await expect(page.getByText('Gate code 4321')).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
  });
  await page.getByRole('link', { name: 'Open job' }).first().click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  // The visit's notes and the client's photos at the top of the job.
  await expect(page.getByRole('alert').filter({ hasText: 'Gate code 4321' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Photo 1 of 1' })).toBeVisible();
  await screenshot(page, 'crew-job-top', { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Employee menu' })).toBeInViewport({ ratio: 1 });
  await screenshot(page, 'crew-job-top', { fullPage: false, device: 'desktop' });
  await page.setViewportSize({ width: 375, height: 812 });
  // Started: the phone keeps the record as the server gives it back.
  const refetched = page.waitForResponse((r) => r.url().endsWith(`/api/my/jobs/${jobId}/record`) && r.ok());
  await page.getByRole('button', { name: 'Start work' }).click();
  await refetched;
  await expect(saveState(page)).toContainText('Saved');

  // Time entries read their day as people do; checklist rows and entries take a 44 px tap.
  await page.getByRole('textbox', { name: 'Hours' }).fill('1');
  await page.getByRole('button', { name: 'Add hours' }).click();
  const entries = page.getByRole('list', { name: 'Time entries' });
  await expect(entries).toContainText(/ · (Mon|Tue|Wed|Thu|Fri|Sat|Sun), [A-Z][a-z]{2} \d{1,2} · 1 h/);
  for (const target of [
    page.locator('#checklist label').filter({ hasText: 'Deck boards × 10' }),
    entries.getByRole('listitem').first(),
    entries.getByRole('button', { name: /^Remove the entry of (Mon|Tue|Wed|Thu|Fri|Sat|Sun), / }),
  ])
    expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expect(saveState(page)).toContainText('Saved');

  // No signal at all: a cold reload of the job opens it from the phone, saying since when.
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByText(/^Offline — showing what you had at \d{1,2}:\d\d [AP]M$/)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Deck boards × 10' }).check();
  const chip = page.getByLabel('1 change waiting');
  await expect(chip).toBeVisible();
  // Still in sight at the signature and at Complete job.
  await page.getByRole('button', { name: 'Complete job' }).scrollIntoViewIfNeeded();
  await expect(chip).toBeInViewport();
  await screenshot(page, 'crew-job-offline-reload', { fullPage: false });

  // My work without signal: the last Today/Upcoming and open jobs, not grey placeholders.
  await page.goto('/employee');
  await expect(page.getByText(/^Offline — showing what you had at /)).toBeVisible();
  await expect(page.getByText('Gate code 4321')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'My open jobs' })).toBeVisible();
  await expect(page.getByText(name).first()).toBeVisible();
  await screenshot(page, 'crew-my-work-offline');

  // The signal returns: the change made offline reaches the server.
  await page.context().setOffline(false);
  await page.goto(`/employee/jobs/${jobId}`);
  await expect(saveState(page)).toContainText('Saved', { timeout: 20_000 });
  await expect(page.getByText(/^Offline — /)).toHaveCount(0);
  await expect
    .poll(async () => {
      const record = await (await request.get(`/api/jobs/${jobId}/record`, { headers: admin })).json();
      return record.checklist.find((c: { text: string }) => c.text === 'Deck boards × 10')?.done;
    })
    .toBe(true);

  // The public site and the office's pages are never served by the crew app's worker.
  for (const path of ['/', '/admin']) {
    await page.goto(path);
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  }
});

/** The crew app's service worker as the server sends it (the e2e server serves the built files). */
const workerFile = () => path.join(projectRoot, 'dist/web', paths.crewApp.worker);

test.describe('a deploy', () => {
  let built: string | undefined;
  test.afterEach(() => {
    if (built !== undefined) fs.writeFileSync(workerFile(), built);
  });

  test(
    'a new version of the crew app takes over at the next reload, without trapping the old one',
    { tag: DEPLOY },
    async ({ page, request }) => {
      test.skip(device() !== 'phone', 'the crew app is for the phone');
      // Each deploy is a changed service worker on the server: the build's own file, with a line that
      // answers its version. (It changes a file every test is served: it runs last, alone.)
      built = fs.readFileSync(workerFile(), 'utf8');
      const deploy = (version: string) =>
        fs.writeFileSync(
          workerFile(),
          `${built}\nself.addEventListener('message', (e) => e.ports[0]?.postMessage(${JSON.stringify(version)}));`,
        );
      const running = () =>
        page.evaluate(async () => {
          await navigator.serviceWorker.ready;
          for (let i = 0; i < 100 && !navigator.serviceWorker.controller; i++)
            await new Promise((r) => setTimeout(r, 50));
          const channel = new MessageChannel();
          const answer = new Promise((resolve) => (channel.port1.onmessage = (e) => resolve(e.data)));
          navigator.serviceWorker.controller!.postMessage('version', [channel.port2]);
          return answer;
        });
      deploy('first');
      const worker = await createEmployee(request);
      await signInAs(page, await apiToken(request, worker.username, worker.password));
      await page.goto('/employee');
      await expect(page.getByRole('heading', { name: 'My work' })).toBeVisible();
      expect(await running()).toBe('first');

      // The next version: the page in use reloads once and runs under it (the old one is not kept waiting).
      deploy('second');
      await page.reload();
      await expect(page.getByRole('heading', { name: 'My work' })).toBeVisible();
      await expect.poll(running, { timeout: 15_000 }).toBe('second');
      // And it serves: a reload without signal opens the crew area from the new version.
      await page.context().setOffline(true);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'My work' })).toBeVisible();
      expect(await running()).toBe('second');
      await page.context().setOffline(false);
    },
  );
});
