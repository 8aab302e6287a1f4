import { paths } from '#shared/paths';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, signInAs, soldJobFor } from './support/staff';
import { futureDate } from '../helpers/dates';

/** Issue 28, item 13: the office's job page, with its crew, visits and quote, fits a phone without sideways scrolling. */
test('the admin job page fits the screen: no sideways scroll at 375 px or 1280 px', async ({ page, request }) => {
  const tag = `${device()}${Date.now().toString(36)}`;
  const name = `Wide Page Client With A Long Name ${tag}`;
  const worker = await createEmployee(request, { fullName: `Alexandra Worthington-Smythe ${tag}` });
  const jobId = await soldJobFor(request, name, worker.id, waitForMail, {
    projectName: 'Replace the rotten deck boards and rebuild the stairs to the garden',
    materials: [
      { name: 'Pressure-treated deck boards, 2×6×12, premium grade', unitPrice: 12.5, quantity: 40 },
      { name: 'Stainless steel deck screws (5 lb box)', unitPrice: 39.99, quantity: 2 },
    ],
    labor: [{ description: 'Tear out and rebuild the stairs', hourlyRate: 85, hours: 12 }],
  });
  const token = await apiToken(request);
  const admin = { authorization: `Bearer ${token}` };
  const visit = await request.post(`/api/jobs/${jobId}/visits`, {
    headers: admin,
    data: { date: futureDate(3), start: '09:00', end: '12:30', workerIds: [worker.id], notes: 'Gate code 4417#' },
  });
  expect(visit.status(), await visit.text()).toBe(201);

  await signInAs(page, token);
  await page.goto(paths.admin.job(jobId));
  await expect(page.getByText(name).first()).toBeVisible();
  await expect(page.getByText('Gate code 4417#').first()).toBeVisible();
  // Everything the page loads has arrived (the quote, visits, record) before measuring.
  await page.waitForLoadState('networkidle');
  const width = page.viewportSize()!.width;
  const overflow = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    wide: [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .filter((el) => !el.closest('[data-scroll-table], .mantine-ScrollArea-root'))
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className} ${(el.textContent ?? '').slice(0, 40)}`),
  }));
  expect(overflow.scrollWidth, overflow.wide.join('\n')).toBeLessThanOrEqual(width);
  await screenshot(page, 'admin-job-page');
});
