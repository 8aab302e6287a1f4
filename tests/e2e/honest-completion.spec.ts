import { pdfText } from '../helpers/pdf';
import { futureDate } from '../helpers/dates';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, signInAs, soldJobFor } from './support/staff';

const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
const twoLines = {
  materials: [
    { name: 'Deck boards', unitPrice: 12.5, quantity: 10 },
    { name: 'Joist hangers', unitPrice: 3, quantity: 6 },
  ],
};

test('Complete job with items not ticked asks first; without signal it says the report goes when the signal returns; the report never says "Not done"', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = `${Date.now().toString(36)}${device()}`;
  const name = `Honest Client ${tag}`;
  const worker = await createEmployee(request, { fullName: `Jo Crew ${tag}` });
  const jobId = await soldJobFor(request, name, worker.id, waitForMail, twoLines);

  await signInAs(page, await apiToken(request, worker.username, worker.password));
  await page.goto(`/employee/jobs/${jobId}`);
  await page.getByRole('button', { name: 'Start work' }).click();
  await page.getByRole('checkbox', { name: 'Deck boards × 10' }).check();
  await page.getByRole('checkbox', { name: 'Joist hangers × 6' }).check();
  await page.getByRole('checkbox', { name: 'Joist hangers × 6' }).uncheck();
  await page.getByLabel('Notes for the office').fill('Neighbour complained about the noise');
  await page.getByLabel('Note to the client').fill('Keep off the new boards until Sunday');
  await expect(page.getByRole('status', { name: 'Save state' })).toContainText('Saved', { timeout: 15_000 });

  // Asked, with the item named: "Tick them" goes back to it.
  await page.getByRole('button', { name: 'Complete job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Complete this job?' });
  await expect(dialog.getByText('1 item not ticked: tick them or complete anyway')).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveText(['Joist hangers × 6']);
  await screenshot(page, 'complete-unticked');
  await dialog.getByRole('button', { name: 'Tick them' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('checkbox', { name: 'Joist hangers × 6' })).toBeFocused();
  await expect(page.getByText('This job is')).toHaveCount(0);

  // Without signal: completed on the phone, and it says so, not "The report was sent".
  await page.context().setOffline(true);
  await page.getByRole('button', { name: 'Complete job' }).click();
  await expect(dialog).toContainText('sent when the signal returns');
  await dialog.getByRole('button', { name: 'Complete anyway' }).click();
  const waiting = page.getByRole('status').filter({ hasText: 'Completed on this phone' });
  await expect(waiting).toContainText(`report sent to ${name} and the office when the signal returns`);
  await expect(page.getByText('The report was sent')).toHaveCount(0);
  await screenshot(page, 'complete-offline');

  // The signal returns: now it is sent, and the page says so.
  await page.context().setOffline(false);
  await expect(page.getByText('The report was sent to the client and the office.')).toBeVisible({ timeout: 20_000 });
  await expect(waiting).toHaveCount(0);

  const mail = await waitForMail(emailOf(name), /^Your job report/);
  const text = await pdfText(mail.attachments.find((a) => a.contentType === 'application/pdf')!.content);
  expect(text).toContain('Deck boards × 10');
  expect(text).toContain('Joist hangers × 6');
  expect(text).not.toContain('Not done');
  expect(text).toContain('Keep off the new boards until Sunday');
  expect(text).not.toContain('Neighbour complained');
});

test('the office books a visit with notes for the crew and a note to the client; only the note to the client reaches them; cancelling the job shows the unpaid deposit', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = `${Date.now().toString(36)}${device()}`;
  const name = `Visit Client ${tag}`;
  const worker = await createEmployee(request, { fullName: `Lee Crew ${tag}` });
  const jobId = await soldJobFor(request, name, worker.id, waitForMail, { deposit: { kind: 'percent', value: 20 } });

  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/jobs/${jobId}`);
  await page.getByRole('button', { name: 'Schedule a visit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule a visit' });
  await dialog.getByLabel('Date').fill(futureDate(5));
  await dialog.getByLabel('Notes for the crew').fill('Gate code 8812, collect the check first');
  await dialog.getByLabel('Note to the client').fill('Please park the car on the street');
  await screenshot(page, 'visit-dialog-client-note');
  await dialog.getByRole('button', { name: 'Book visit' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('To the client: Please park the car on the street')).toBeVisible();

  const mail = await waitForMail(emailOf(name), /^Your visit on/);
  const ics = mail.attachments
    .find((a) => a.filename === 'visit.ics')!
    .content.toString('utf8')
    .replace(/\r?\n[ \t]/g, '');
  expect(ics).toContain('Please park the car on the street');
  expect(mail.text).toContain('Please park the car on the street');
  for (const text of [ics, mail.text ?? '', String(mail.html)]) expect(text).not.toContain('Gate code 8812');

  // Cancelled with the deposit unpaid: the office sees it at the top of the job.
  await page.getByRole('button', { name: 'Cancel job' }).click();
  await page.getByLabel('Why is the job cancelled?').fill('The client sold the house');
  await page.getByRole('dialog', { name: 'Cancel this job?' }).getByRole('button', { name: 'Cancel job' }).click();
  const alert = page.getByRole('status').filter({ hasText: /Deposit INV-\d{4}-\d{4} is still open/ });
  await expect(alert).toContainText(/This job is cancelled and its deposit invoice has \$\d+\.\d\d unpaid/, {
    timeout: 15_000,
  });
  await expect(alert.getByRole('link', { name: 'Open the deposit invoice' })).toBeVisible();
  await screenshot(page, 'job-cancelled-open-deposit');
  // Freshly loaded, the notice is there when the job is drawn: it does not push the page down later.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Client Info' })).toBeVisible();
  expect(await alert.isVisible()).toBe(true);
  await waitForMail('owner@', /deposit INV-\d{4}-\d{4} still open/);
});

test('the office asks before marking a job completed, naming the items the crew left unticked; Cancel leaves it open', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = `${Date.now().toString(36)}${device()}`;
  const name = `Office Done ${tag}`;
  const worker = await createEmployee(request, { fullName: `Sam Crew ${tag}` });
  const jobId = await soldJobFor(request, name, worker.id, waitForMail, twoLines);

  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/jobs/${jobId}`);
  await page.getByRole('button', { name: 'Start work' }).click();
  await expect(page.getByText('Job is now In Progress')).toBeVisible();
  await page.getByRole('button', { name: 'Mark completed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mark this job completed?' });
  await expect(dialog.getByText('The crew has not ticked 2 items')).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveText(['Deck boards × 10', 'Joist hangers × 6']);
  await expect(dialog).toContainText('The client is e-mailed the job report');
  await screenshot(page, 'office-complete-unticked');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('In Progress', { exact: true })).toBeVisible();

  await page.reload();
  await page.getByRole('button', { name: 'Mark completed' }).click();
  await dialog.getByRole('button', { name: 'Mark completed' }).click();
  await expect(page.getByText('Job is now Completed')).toBeVisible();
  await waitForMail(emailOf(name), /^Your job report/);
});
