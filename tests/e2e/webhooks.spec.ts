import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import { verifySignature } from '../../src/server/webhooks/signing';
import { expectNoAxeViolations } from './support/axe';
import { expect, screenshot, SHARED_STATE, testChangingSettings as test } from './support/fixtures';
import { apiToken, createQuoteRequest, signInAs } from './support/staff';

// Issue 33 (decision 044): the Owner adds a webhook on Settings, copies its secret once, sees its
// deliveries and sends one again. The receiver is on this machine, so Settings must allow it first.
test(
  'the Owner adds a webhook, the receiver gets a signed event, the log shows it and sends it again',
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    const bodies: { body: string; signature: string }[] = [];
    // The second try's answer waits until the test has seen "Retrying": on a slow host the reload
    // below can outlast the backoff's 5 s, and the log would already say "Delivered".
    let letSecondThrough = () => {};
    const secondMayPass = new Promise<void>((resolve) => (letSecondThrough = resolve));
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        bodies.push({ body, signature: String(req.headers['x-handyman-signature']) });
        // The first delivery is refused, as a receiver that is down a moment: it is tried again.
        if (bodies.length === 1) res.writeHead(500).end();
        else if (bodies.length === 2) void secondMayPass.then(() => res.writeHead(204).end());
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const headers = { authorization: `Bearer ${await apiToken(request)}` };
    try {
      await signInAs(page, await apiToken(request));
      await page.goto(paths.admin.settings);
      const card = page.getByRole('heading', { name: 'Webhooks', exact: true });
      await card.scrollIntoViewIfNeeded();

      // Refused while Settings keep webhooks off this machine.
      await page.getByLabel("Receiver's address").fill(url);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await expect(page.getByText(/127\.0\.0\.1 is on this machine or a private network/)).toBeVisible();

      await page.getByLabel('Let webhooks reach this machine and the local network').check();
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await expect(page.getByText(messages.settingsSaved)).toBeVisible();
      await page.getByRole('checkbox', { name: 'A visit is booked' }).uncheck();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const secret = await page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await screenshot(page, 'webhook-secret', { fullPage: false });
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByRole('textbox', { name: 'Signing secret', exact: true })).toHaveCount(0);

      // An event: a quote request comes in; the receiver checks its signature with the secret.
      const tag = Date.now().toString(36);
      await createQuoteRequest(request, `Hook Client ${tag}`);
      await expect.poll(() => bodies.filter((b) => b.body.includes(`Hook Client ${tag}`)).length).toBe(1);
      const got = bodies.find((b) => b.body.includes(`Hook Client ${tag}`))!;
      expect(verifySignature(secret, got.signature, got.body)).toBe(true);

      // Refused once: the log says it is retrying, and once the retry is taken (the backoff's first
      // step, 5 s) both the log and the list's "Last:" line say so, without a reload.
      await page.reload();
      await page.getByRole('button', { name: 'Deliveries' }).click();
      const log = page.getByRole('list', { name: `Deliveries to ${url}` });
      await expect(log.getByText('A quote request comes in')).toBeVisible();
      await expect(log.getByText('Retrying')).toBeVisible();
      const last = page.getByText(/^Last: /).locator('..');
      await expect(last.getByText('Retrying')).toBeVisible();
      letSecondThrough();
      await expect
        .poll(() => bodies.filter((b) => b.body.includes(`Hook Client ${tag}`)).length, {
          timeout: 20_000,
        })
        .toBe(2);
      await expect(log.getByText('Delivered')).toBeVisible();
      await expect(last.getByText('Delivered')).toBeVisible();
      await expectNoAxeViolations(page);
      await screenshot(page, 'webhook-deliveries', { fullPage: false });
      await log.getByRole('button', { name: 'Send again' }).first().click();
      await expect(page.getByText('Sent again')).toBeVisible();
      await expect.poll(() => bodies.filter((b) => b.body.includes(`Hook Client ${tag}`)).length).toBe(3);

      // Removed: it hears of nothing more.
      await page.getByRole('button', { name: 'Remove', exact: true }).click();
      await page.getByRole('dialog', { name: 'Remove webhook' }).getByRole('button', { name: 'Remove' }).click();
      await expect(page.getByText('No webhooks yet.')).toBeVisible();
    } finally {
      letSecondThrough();
      for (const w of (await (await request.get('/api/webhooks', { headers })).json()).webhooks ?? [])
        await request.delete(`/api/webhooks/${w._id}`, { headers });
      await new Promise((resolve) => server.close(resolve));
    }
  },
);
