import type { APIRequestContext } from '@playwright/test';
import { addDays, todayIn, wallTimeIn } from '#shared/dates';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, SHARED_STATE, test } from './support/fixtures';
import { refuseMailTo, waitForMail } from './support/mail';
import { apiToken, createEmployee, createQuoteRequest, signInAs, soldJobFor } from './support/staff';

const ZONE = 'America/Los_Angeles';
const fakeUrl = () => process.env.E2E_FAKE_TWILIO_URL!;

interface FakeText {
  sid: string;
  to: string;
  body: string;
}

/** The texts the fake Twilio (in the global setup) took for a number. */
async function textsTo(request: APIRequestContext, number: string): Promise<FakeText[]> {
  const res = await request.get(`${fakeUrl()}/_fake/messages?to=${encodeURIComponent(number)}`);
  return ((await res.json()) as { messages: FakeText[] }).messages;
}

async function textTo(request: APIRequestContext, number: string, match: RegExp): Promise<FakeText> {
  let found: FakeText | undefined;
  await expect
    .poll(async () => (found = (await textsTo(request, number)).find((m) => match.test(m.body))), {
      timeout: 15_000,
      message: `a text to ${number} matching ${match}`,
    })
    .toBeTruthy();
  return found!;
}

/**
 * Issue 30 (decision 045): the owner sets up texts on Settings and sends a test text; the office gives
 * a client a mobile and chooses texts for them; a visit booked for today reaches the client by text
 * (the fake Twilio), its delivery report shows on the client's page; the crew taps "On my way" on a
 * 375 px phone and the text goes out once. Texts are a setting the whole server reads: the test runs
 * alone on its server and turns texts off at the end.
 */
test(
  'the owner turns texts on, the client is texted their visit, delivery shows, and the crew’s On my way goes once',
  { tag: SHARED_STATE },
  async ({ page, request, browser }) => {
    test.setTimeout(360_000);
    const headers = { authorization: `Bearer ${await apiToken(request)}` };
    const suffix = `${device() === 'phone' ? 1 : 2}${String(Date.now()).slice(-3)}`;
    const mobile = `+1916555${suffix}`;
    const typedMobile = `(916) 555-${suffix}`;
    try {
      // The owner adds the Twilio account on Settings and sends a test text.
      await signInAs(page, await apiToken(request));
      await page.goto('/admin/settings');
      const section = page.getByRole('region', { name: 'Text messages' });
      await expect(section.getByText('Texts are off')).toBeVisible();
      await section.getByLabel('Account SID').fill(process.env.E2E_FAKE_TWILIO_SID!);
      await section.getByLabel('Auth token', { exact: true }).fill(process.env.E2E_FAKE_TWILIO_TOKEN!);
      await section.getByLabel('Texts come from').fill('(916) 555-0000');
      // This client is texted four visits' news today, an answer and On my way: more than the default 6.
      await section.getByLabel('Texts to one number in a day, at most').fill('10');
      await section.getByRole('button', { name: 'Save text messages' }).click();
      await expect(section.getByText('Texts are on')).toBeVisible();
      await expect(section.getByLabel('Texts come from')).toHaveValue('(916) 555-0000');
      await section.getByLabel('Send a test text to').fill(typedMobile);
      await section.getByRole('button', { name: 'Send a test text' }).click();
      await expect(page.getByText(`Twilio took the test text to ${mobile}`)).toBeVisible();
      await textTo(request, mobile, /this is a test text/);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, 'settings-texts', { fullPage: false });

      // A sold job for a client, with a worker on it; the office gives the client a mobile and texts.
      const crew = await createEmployee(request, { fullName: `Dana Texts${suffix}` });
      const name = `Texted Client ${device()} ${Date.now().toString(36)}`;
      const jobId = await soldJobFor(request, name, crew.id, waitForMail);
      const { clients } = await (
        await request.get(`/api/clients?page=1&limit=5&search=${encodeURIComponent(name)}`, { headers })
      ).json();
      await page.goto(`/admin/clients/${clients[0]._id}`);
      await page.getByRole('button', { name: 'Edit client' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit client' });
      await dialog.getByLabel('Mobile for texts').fill('12');
      await dialog
        .locator('label')
        .filter({ hasText: /^Text$/ })
        .click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Enter a mobile number such as (916) 555-0142')).toBeVisible();
      await dialog.getByLabel('Mobile for texts').fill(typedMobile);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(`Mobile for texts: ${typedMobile}`)).toBeVisible();
      await expect(page.getByTestId('client-channel')).toHaveText('Hears from us by text');

      // A visit today (this hour), booked by the office: the client is texted, not e-mailed.
      const hour = wallTimeIn(ZONE, new Date()).time.slice(0, 2);
      const booked = await request.post(`/api/jobs/${jobId}/visits`, {
        headers,
        data: {
          date: todayIn(ZONE),
          start: `${hour}:00`,
          end: `${hour}:45`,
          workerIds: [crew.id],
          notes: 'Gate code 1234',
          clientNote: '',
          confirm: true,
        },
      });
      expect(booked.status(), await booked.text()).toBe(201);
      const visitText = await textTo(request, mobile, /your visit is booked for/);
      expect(visitText.body).not.toContain('Gate code');
      const code = /\/p\/([A-Za-z0-9]+)$/.exec(visitText.body)![1]!;

      // Twilio reports it delivered: the client's page says so.
      const reported = await request.post(`${fakeUrl()}/_fake/report`, {
        data: { sid: visitText.sid, status: 'delivered' },
      });
      expect((await reported.json()).status).toBe(200);
      await page.reload();
      const texts = page.getByRole('region', { name: 'Texts' });
      await expect(texts.getByTestId('client-text').filter({ hasText: 'Visit booked' })).toContainText('Delivered');
      await expectNoAxeViolations(page);
      await texts.scrollIntoViewIfNeeded();
      await screenshot(page, 'client-texts', { fullPage: false });

      // The text's short link opens the client's own page, where they confirm tomorrow's visit.
      const tomorrowVisit = await request.post(`/api/jobs/${jobId}/visits`, {
        headers,
        data: {
          date: addDays(todayIn(ZONE), 1),
          start: '10:00',
          end: '12:00',
          workerIds: [crew.id],
          notes: '',
          clientNote: '',
          confirm: true,
        },
      });
      expect(tomorrowVisit.status()).toBe(201);
      const client = await browser.newContext({ viewport: { width: 375, height: 812 } });
      const clientPage = await client.newPage();
      await clientPage.goto(`/p/${code}`);
      await expect(clientPage.getByRole('heading', { level: 1, name })).toBeVisible();
      const ourTexts = clientPage.getByRole('region', { name: 'Our texts to you' });
      // Today's booking, reported delivered; tomorrow's, just sent.
      await expect(ourTexts.getByRole('listitem').filter({ hasText: 'Delivered' })).toContainText(
        visitText.body.slice(0, 60),
      );
      await clientPage.getByRole('button', { name: /^Confirm the visit of / }).click();
      await expect(clientPage.getByTestId('visit-confirmed')).toHaveText('You confirmed this time. Thank you!');
      await screenshot(clientPage, 'client-confirmed-visit', { device: 'phone' });
      await client.close();
      // The office sees it on the job, and the job's texts with where each stands.
      await page.goto(`/admin/jobs/${jobId}`);
      await expect(page.getByTestId('visit-confirmed')).toHaveText('✓ Confirmed by the client');
      const jobTexts = page.getByRole('region', { name: 'Texts about this job' });
      // Today's booking, reported delivered (tomorrow's is listed above it, sent).
      await expect(
        jobTexts.getByTestId('client-text').filter({ hasText: 'Visit booked' }).filter({ hasText: 'Delivered' }),
      ).toHaveCount(1);
      await jobTexts.scrollIntoViewIfNeeded();
      await screenshot(page, 'job-texts', { fullPage: false });

      // The reminder asks the client to confirm, and they answer C by text. (A visit tomorrow at midnight
      // is reminded at once: its time the day before has passed, and its morning would come after it.)
      const midnight = await request.post(`/api/jobs/${jobId}/visits`, {
        headers,
        data: {
          date: addDays(todayIn(ZONE), 1),
          start: '00:00',
          end: '01:00',
          workerIds: [crew.id],
          notes: '',
          clientNote: '',
          confirm: true,
        },
      });
      expect(midnight.status(), await midnight.text()).toBe(201);
      const reminder = await textTo(request, mobile, /Reply C to confirm/);
      expect(reminder.body).toMatch(/we are coming tomorrow, .+, arriving 12:00 AM - 2:00 AM\. Reply C to confirm\./);
      const replied = await request.post(`${fakeUrl()}/_fake/reply`, {
        data: { url: `${test.info().project.use.baseURL}/api/texts/twilio/inbound`, from: mobile, body: 'C' },
      });
      expect((await replied.json()).status).toBe(200);
      await page.reload();
      await expect(page.getByTestId('visit-confirmed')).toHaveCount(2);
      await expect(jobTexts.getByTestId('client-text').filter({ hasText: 'Our answer to their reply' })).toContainText(
        'is confirmed',
      );

      // The worker, on a phone, taps On my way on today's visit: one text, whatever is tapped after.
      const phone = await browser.newContext({ viewport: { width: 375, height: 812 } });
      try {
        const crewPage = await phone.newPage();
        await signInAs(crewPage, await apiToken(request, crew.username, crew.password));
        await crewPage.goto('/employee');
        const today = crewPage.getByRole('region', { name: 'Today' });
        await expect(today.getByText(name)).toBeVisible();
        await expect(today.getByText('On my way: arriving in')).toBeVisible();
        await screenshot(crewPage, 'crew-on-my-way', { device: 'phone' });
        // No signal: the tap says so, and nothing went.
        await phone.setOffline(true);
        await today.getByRole('button', { name: 'On my way, arriving in 30 minutes' }).click();
        await expect(today.getByRole('alert')).toHaveText(
          'No signal: the client was not told. Tap again once you have signal.',
        );
        expect((await textsTo(request, mobile)).filter((m) => /is on the way/.test(m.body))).toHaveLength(0);
        await phone.setOffline(false);
        await today.getByRole('button', { name: 'On my way, arriving in 30 minutes' }).click();
        await expect(today.getByTestId('on-my-way-sent')).toContainText('On my way told the client at');
        const onMyWay = await textTo(request, mobile, /is on the way/);
        expect(onMyWay.body).toMatch(new RegExp(`^Dana from .+ is on the way, arriving around \\d{1,2}:\\d\\d [AP]M$`));
        await crewPage.reload();
        await expect(today.getByTestId('on-my-way-sent')).toBeVisible();
        await expect(today.getByRole('button', { name: /On my way, arriving in/ })).toHaveCount(0);
        await expectNoAxeViolations(crewPage);
        expect((await textsTo(request, mobile)).filter((m) => /is on the way/.test(m.body))).toHaveLength(1);
      } finally {
        await phone.close();
      }
    } finally {
      await request.delete('/api/settings/texts', { headers });
    }
  },
);

/**
 * Issue 30: a message that failed on one channel is offered on the other. The mail server refuses a
 * client's address; the request's timeline shows the e-mail failing and offers "Send by text instead"
 * (the client takes texts); the client is texted once, without their address, and the request's texts
 * list it.
 */
test(
  'a failing e-mail on the request’s timeline is sent by text instead, once',
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    test.setTimeout(180_000);
    const headers = { authorization: `Bearer ${await apiToken(request)}` };
    const suffix = `${device() === 'phone' ? 3 : 4}${String(Date.now()).slice(-3)}`;
    const mobile = `+1916555${suffix}`;
    const name = `Bounced ${device()} ${Date.now().toString(36)}`;
    const email = `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
    const allowMail = refuseMailTo(email);
    try {
      const saved = await request.put('/api/settings/texts', {
        headers,
        data: {
          accountSid: process.env.E2E_FAKE_TWILIO_SID!,
          authToken: process.env.E2E_FAKE_TWILIO_TOKEN!,
          fromNumber: '(916) 555-0000',
          messagingServiceSid: '',
          dailyLimit: 6,
        },
      });
      expect(saved.status(), await saved.text()).toBe(200);
      const created = await createQuoteRequest(request, name);
      const { clients } = await (
        await request.get(`/api/clients?page=1&limit=5&search=${encodeURIComponent(name)}`, { headers })
      ).json();
      const client = clients[0];
      const put = await request.put(`/api/clients/${client._id}`, {
        headers,
        data: {
          name: client.name,
          phone: client.phone,
          notes: '',
          mobile: `(916) 555-${suffix}`,
          messageChannel: 'both',
        },
      });
      expect(put.status(), await put.text()).toBe(200);

      await signInAs(page, await apiToken(request));
      await page.goto(`/admin/quote-requests/${created._id}`);
      const timeline = page.getByRole('region', { name: 'Timeline' });
      // The thank-you e-mail is refused: it shows failing (the timeline refreshes itself).
      await expect(timeline.getByText('E-mail failing')).toBeVisible({ timeout: 45_000 });
      await timeline.getByRole('button', { name: 'Send by text instead' }).click();
      await expect(page.getByText('Texting the client that the e-mail did not reach them')).toBeVisible();
      await expect(timeline.getByText('Sent by text instead: see the texts about this request')).toBeVisible();
      await expect(timeline.getByRole('button', { name: 'Send by text instead' })).toHaveCount(0);
      const text = await textTo(request, mobile, /did not reach you/);
      expect(text.body).toMatch(/^Sac Handyman Services: our e-mail ".+" did not reach you\. Details: http.+\/p\/\w+$/);
      expect(text.body).not.toContain(email);
      const texts = page.getByRole('region', { name: 'Texts about this request' });
      await expect(texts.getByTestId('client-text').filter({ hasText: 'An e-mail that did not arrive' })).toBeVisible();
      await expectNoAxeViolations(page);
      await timeline.scrollIntoViewIfNeeded();
      await screenshot(page, 'request-mail-texted-instead', { fullPage: false });
      // After a reload, the same: sent once, no button.
      await page.reload();
      await expect(timeline.getByText('Sent by text instead: see the texts about this request')).toBeVisible();
      await expect(timeline.getByRole('button', { name: 'Send by text instead' })).toHaveCount(0);
      expect((await textsTo(request, mobile)).filter((m) => /did not reach you/.test(m.body))).toHaveLength(1);
    } finally {
      allowMail();
      await request.delete('/api/settings/texts', { headers });
    }
  },
);
