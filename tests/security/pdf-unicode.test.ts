// Issue 11, item 7: quote PDFs draw names in any script, emoji included, and a reader copies them back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fontRuns } from '../../src/server/lib/pdf-fonts';
import { createQuoteRequest } from '../helpers/factories';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { routeDbKind } from '../helpers/test-db';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';

const clientName = '王小明 Zoë Ørsted';
const projectName = 'Kitchen 🔧 repair — Ремонт';

describe('quote PDFs in any script', () => {
  let t: TestApp & { smtp: TestSmtpServer };
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createMailingTestApp(routeDbKind);
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  it('splits text into runs by the font that can draw it', () => {
    const runs = fontRuns('Hi 王 🔧!');
    expect(runs.map((r) => r.text)).toEqual(['Hi ', '王', ' ', '🔧', '!']);
    expect(runs[0]!.file).toMatch(/noto-sans-latin-400-normal\.woff$/);
    expect(runs[1]!.file).toMatch(/noto-sans-sc-\d+-400-normal\.woff$/);
    expect(runs[3]!.file).toMatch(/noto-(emoji|sans-sc)-\d+-400-normal\.woff$/);
  });

  it('writes the client’s Chinese name, accents, Cyrillic and an emoji so they read back from the PDF', async () => {
    const email = 'wang@home.test';
    const request = await createQuoteRequest(t, { email });
    await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${request._id}`, headers: admin });
    const lines = {
      clientName,
      projectName,
      materials: [{ name: '瓷砖 tiles ✨', unitPrice: 10, quantity: 2 }],
      labor: [{ hourlyRate: 50, hours: 1 }],
    };
    const draft = (
      await t.app.inject({
        method: 'POST',
        url: '/api/quotes/createNew',
        headers: admin,
        payload: { ...lines, quoteRequestId: request._id },
      })
    ).json();
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/quotes/sendQuote',
      headers: admin,
      payload: { ...lines, quoteRequestId: request._id, quote: draft },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await waitFor(() => t.smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const pdf = mail.parsed.attachments.find((a) => a.contentType === 'application/pdf')!;
    const text = (await pdfText(pdf.content)).normalize('NFC');
    expect(text).toContain(`Client: ${clientName}`);
    expect(text).toContain(`Project: ${projectName}`);
    expect(text).toContain('瓷砖 tiles ✨');
    expect(text).not.toMatch(/Ø=Þ|N-e‡/);
  });
});
