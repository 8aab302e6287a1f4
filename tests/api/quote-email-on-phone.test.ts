import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, testChromiumPath } from '../helpers/chromium';
import { createQuoteRequest } from '../helpers/factories';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/** Lines as a real supplier's catalogue names them: long, and one without a space to break at. */
const longLines = {
  clientName: 'Dana Whitfield',
  projectName: 'Backyard fence, gate and deck stairs',
  materials: [
    {
      name: 'Pressure-treated Douglas fir fence boards, 5/8 in × 5-1/2 in × 6 ft, dog-ear top, ground contact rated',
      unitPrice: 1234.56,
      quantity: 12,
    },
    { name: 'SimpsonStrongTie-HeavyDutyGateHingeKit-BlackPowderCoat-12in', unitPrice: 34.99, quantity: 2 },
  ],
  labor: [
    { description: 'Remove the old fence and haul it away, set new posts in concrete', hourlyRate: 65, hours: 14.5 },
  ],
};

// The layout does not depend on the database: one is enough.
describe.each(dbKinds.slice(0, 1))('the quote e-mail read on a phone (%s)', (kind) => {
  let t: TestApp & { smtp: TestSmtpServer };
  let browser: Browser;
  let html: string;
  beforeAll(async () => {
    t = await createMailingTestApp(kind);
    browser = await chromium.launch({ executablePath: testChromiumPath, args: chromiumArgs });
    const admin = bearer((await createUserAndSignIn(t, 'admin')).token);
    const email = `phone${Date.now()}@home.test`;
    const request = await createQuoteRequest(t, { email });
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: admin });
    await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${request._id}`, headers: admin });
    const draft = (await post('/api/quotes/createNew', { ...longLines, quoteRequestId: request._id })).json();
    const sent = await post('/api/quotes/sendQuote', { ...longLines, quoteRequestId: request._id, quote: draft });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await waitFor(() => t.smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    html = mail.parsed.html || '';
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it.each([375, 1280])('fits %i px: names wrap, every amount stays on one line', async (width) => {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    await page.setContent(html);
    await page.screenshot({ path: `/tmp/h-mail-quote-email-${width}.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const { amounts, name } = await page.evaluate(() => {
      // How many lines of text a cell's content takes up, as laid out.
      const measure = (td: Element) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        return { text: td.textContent!.trim(), lines, right: td.getBoundingClientRect().right };
      };
      const cells = [...document.querySelectorAll('td')];
      return {
        amounts: cells.filter((td) => /^\$[\d,]+\.\d\d$/.test(td.textContent?.trim() ?? '')).map(measure),
        name: measure(cells.find((td) => td.textContent?.startsWith('SimpsonStrongTie'))!),
      };
    });
    // Three lines, then subtotal, tax (8% of the materials' $14,884.70; labor is not taxed) and total.
    expect(amounts.map((a) => a.text)).toEqual([
      '$14,814.72',
      '$69.98',
      '$942.50',
      '$15,827.20',
      '$1,190.78',
      '$17,017.98',
    ]);
    for (const amount of amounts) {
      expect(amount.lines, amount.text).toBe(1);
      expect(amount.right, amount.text).toBeLessThanOrEqual(width);
    }
    // The long names wrap inside the screen instead of widening the e-mail.
    expect(name.right).toBeLessThanOrEqual(width);
    if (width === 375) expect(name.lines).toBeGreaterThan(1);
    await page.close();
  });
});
