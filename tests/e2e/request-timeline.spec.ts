import { paths } from '#shared/paths';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, sentQuoteLink, signInAs } from './support/staff';

/** Question-and-answer rounds after the quote is sent: 60 steps of them. */
const ROUNDS = 30;

test('a request with a long history opens on its newest steps; the office shows the earlier ones down to the request', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const name = `Casey Chatty ${device()}${Date.now().toString(36)}`;
  const link = new URL(await sentQuoteLink(request, name, waitForMail));
  const quoteId = link.pathname.split('/').pop()!;
  const token = await apiToken(request);
  const admin = { authorization: `Bearer ${token}` };
  // A chatty client: a question, the office's answer, again and again.
  for (let round = 1; round <= ROUNDS; round++) {
    const asked = await request.post(`/api/client-quotes/${quoteId}/answer`, {
      data: { action: 'more-info', token: link.searchParams.get('token'), message: `Question ${round}` },
    });
    expect(asked.status(), await asked.text()).toBe(200);
    const answered = await request.post(`/api/quotes/${quoteId}/reply`, {
      headers: admin,
      data: { message: `Answer ${round}` },
    });
    expect(answered.status(), await answered.text()).toBe(200);
  }
  const { quoteRequests } = await (
    await request.get(`/api/quoterequest/all?page=1&limit=5&search=${encodeURIComponent(name)}`, { headers: admin })
  ).json();
  // The request, its acceptance, the quote and its reminders, then the rounds: more than the 50 shown first.
  const whole = await (
    await request.get(`/api/quoterequest/${quoteRequests[0]._id}/timeline?limit=1000`, { headers: admin })
  ).json();
  const total = whole.events.length as number;
  expect(total).toBeGreaterThan(3 + 2 * ROUNDS);

  await signInAs(page, token);
  await page.goto(paths.admin.quoteRequest(quoteRequests[0]._id));
  const timeline = page.getByRole('region', { name: 'Timeline' });
  // The newest 50 steps: the last answer is there, the request is not yet.
  await expect(timeline.getByText(`Answer ${ROUNDS}`, { exact: true })).toBeVisible();
  await expect(timeline.getByText('Question 1', { exact: true })).toHaveCount(0);
  await expect(timeline.getByText('Request received')).toHaveCount(0);
  await expect(timeline).toContainText(`${total - 50} earlier steps not shown`);
  const showEarlier = timeline.getByRole('button', { name: 'Show earlier steps' });
  await showEarlier.scrollIntoViewIfNeeded();
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'request-timeline-earlier', { fullPage: false });

  await showEarlier.click();
  await expect(timeline.getByText('Request received')).toBeVisible();
  await expect(timeline.getByText('Question 1', { exact: true })).toBeVisible();
  await expect(showEarlier).toHaveCount(0);
  await expect(timeline).not.toContainText('not shown');
  // Still in order: the request first, the last answer last.
  const titles = await timeline.locator('.mantine-Timeline-itemTitle').allTextContents();
  expect(titles).toHaveLength(total);
  expect(titles[0]).toBe('Request received');
  // Each answer resumed the quote's reminders (issue 28, item 13): they come after it.
  expect(titles.filter((title) => !title.startsWith('Reminder')).at(-1)).toBe('Answer sent');
  expect(titles.at(-1)).toMatch(/^Reminder for /);
});
