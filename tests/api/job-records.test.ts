import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobChecklistItems, jobPhotos, jobRecords, jobTimeEntries, jobs, users } from '../../src/server/db/schema';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { makeJpeg, makePng } from '../helpers/images';
import { pdfImages, pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';
import { wallTimeIn } from '#shared/dates';

const ZONE = 'America/Los_Angeles';

const dataUrl = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;

describe.each(dbKinds)('the crew’s record of a job (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  let alex: { id: string; auth: Record<string, string> };
  let sam: { id: string; auth: Record<string, string> };
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
    const a = await createUserAndSignIn(t, 'employee');
    const s = await createUserAndSignIn(t, 'employee');
    alex = { id: a.user.id, auth: bearer(a.token) };
    sam = { id: s.user.id, auth: bearer(s.token) };
    await t.database.db.update(users).set({ fullName: 'Alex Rivera' }).where(eq(users.id, alex.id));
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'PUT' | 'DELETE' | 'POST' | 'PATCH', url: string, headers: object, payload?: object) =>
    t.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) });

  const clientEmails = new Map<string, string>();
  /** A job sold with a quote (a material and a labor line), Alex on its crew. */
  async function alexJob() {
    const request = await createQuoteRequest(t);
    const email = `rec${randomUUID().slice(0, 8)}@home.test`;
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, email });
    clientEmails.set(jobId, email);
    const assigned = await send('POST', `/api/jobs/${jobId}/assign`, admin, { workers: [{ _id: alex.id }] });
    expect(assigned.statusCode, assigned.body).toBe(200);
    return jobId;
  }
  const record = async (jobId: string, auth = alex.auth) => {
    const res = await send('GET', `/api/my/jobs/${jobId}/record`, auth);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('starts the checklist from the sold quote once, even when first opened twice at once', async () => {
    const jobId = await alexJob();
    const [a, b] = await Promise.all([record(jobId), record(jobId)]);
    expect(a.checklist.map((c: { text: string }) => c.text)).toEqual(['Paint × 2', 'Rehang the gate (3.5 h)']);
    expect(b.checklist).toHaveLength(2);
    const rows = await t.database.db.select().from(jobChecklistItems).where(eq(jobChecklistItems.jobId, jobId));
    expect(rows).toHaveLength(2);
    expect((await record(jobId)).checklist).toHaveLength(2);
  });

  it('ticks items once however often a change is sent; the crew adds and removes their own, not the quote’s', async () => {
    const jobId = await alexJob();
    const quoteLine = (await record(jobId)).checklist[0];
    for (let i = 0; i < 2; i++) {
      const res = await send('PUT', `/api/my/jobs/${jobId}/checklist/${quoteLine._id}`, alex.auth, {
        text: 'Reworded',
        done: true,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const own = randomUUID();
    await send('PUT', `/api/my/jobs/${jobId}/checklist/${own}`, alex.auth, {
      text: 'Haul away the old gate',
      done: false,
    });
    await send('PUT', `/api/my/jobs/${jobId}/checklist/${own}`, alex.auth, {
      text: 'Haul away the old gate',
      done: false,
    });
    let view = await record(jobId);
    expect(view.checklist).toHaveLength(3);
    expect(view.checklist[0]).toMatchObject({ text: 'Paint × 2', done: true, doneBy: 'Alex Rivera' });
    expect(view.checklist[2]).toMatchObject({
      _id: own,
      text: 'Haul away the old gate',
      done: false,
      fromQuote: false,
    });
    const refused = await send('DELETE', `/api/my/jobs/${jobId}/checklist/${quoteLine._id}`, alex.auth);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ITEM_FROM_QUOTE');
    expect((await send('DELETE', `/api/my/jobs/${jobId}/checklist/${own}`, alex.auth)).statusCode).toBe(200);
    expect((await send('DELETE', `/api/my/jobs/${jobId}/checklist/${own}`, alex.auth)).statusCode).toBe(200);
    view = await record(jobId);
    expect(view.checklist).toHaveLength(2);
    // An id of another job's item is not this job's to change.
    const other = await alexJob();
    const moved = await send('PUT', `/api/my/jobs/${other}/checklist/${quoteLine._id}`, alex.auth, {
      text: 'x',
      done: true,
    });
    expect(moved.statusCode).toBe(404);
  });

  it('shows a worker only the jobs they are on', async () => {
    const jobId = await alexJob();
    expect((await send('GET', `/api/my/jobs/${jobId}/record`, sam.auth)).statusCode).toBe(404);
    const write = await send('PUT', `/api/my/jobs/${jobId}/notes`, sam.auth, { notes: 'not mine' });
    expect(write.statusCode).toBe(404);
    expect((await send('POST', `/api/my/jobs/${jobId}/complete`, sam.auth)).statusCode).toBe(404);
    expect((await send('GET', `/api/jobs/${jobId}/record`, alex.auth)).statusCode).toBe(403);
  });

  it('runs one timer per worker: starting one stops the last; hours add up per worker', async () => {
    const first = await alexJob();
    const second = await alexJob();
    const timerA = randomUUID();
    const started = new Date(Date.now() - 90 * 60_000).toISOString();
    await send('PUT', `/api/my/jobs/${first}/time/${timerA}`, alex.auth, { kind: 'timer', startedAt: started });
    expect((await record(first)).time[0]).toMatchObject({ startedAt: started, minutes: null });
    const timerB = randomUUID();
    const secondStart = new Date(Date.now() - 30 * 60_000).toISOString();
    await send('PUT', `/api/my/jobs/${second}/time/${timerB}`, alex.auth, { kind: 'timer', startedAt: secondStart });
    const firstView = await record(first);
    expect(firstView.time[0].minutes).toBe(60);
    expect(firstView.timeTotals).toEqual([{ worker: { _id: alex.id, fullName: 'Alex Rivera' }, minutes: 60 }]);
    // Stopping B (sent twice) counts it once.
    for (let i = 0; i < 2; i++)
      await send('PUT', `/api/my/jobs/${second}/time/${timerB}`, alex.auth, {
        kind: 'timer',
        startedAt: secondStart,
        endedAt: new Date().toISOString(),
      });
    await send('PUT', `/api/my/jobs/${second}/time/${randomUUID()}`, alex.auth, {
      kind: 'hours',
      workDate: '2026-11-20',
      hours: 1.25,
    });
    const secondView = await record(second);
    expect(secondView.timeTotals[0].minutes).toBe(30 + 75);
    const future = await send('PUT', `/api/my/jobs/${second}/time/${randomUUID()}`, alex.auth, {
      kind: 'timer',
      startedAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.statusCode).toBe(400);
    const oddHours = await send('PUT', `/api/my/jobs/${second}/time/${randomUUID()}`, alex.auth, {
      kind: 'hours',
      workDate: '2026-11-20',
      hours: 1.1,
    });
    expect(oddHours.statusCode).toBe(400);
  });

  it('never leaves a worker with two running timers when two starts arrive at once', async () => {
    const jobs = [await alexJob(), await alexJob(), await alexJob()];
    const startedAt = new Date(Date.now() - 5 * 60_000).toISOString();
    const results = await Promise.all(
      jobs.map((jobId) =>
        send('PUT', `/api/my/jobs/${jobId}/time/${randomUUID()}`, alex.auth, { kind: 'timer', startedAt }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const running = await t.database.db
      .select()
      .from(jobTimeEntries)
      .where(
        and(eq(jobTimeEntries.userId, alex.id), isNotNull(jobTimeEntries.startedAt), isNull(jobTimeEntries.endedAt)),
      );
    expect(running).toHaveLength(1);
  });

  it('prices materials for the office and hides prices from the crew unless the owner allows it', async () => {
    const jobId = await alexJob();
    const settings = (await send('GET', '/api/settings', admin)).json();
    const { logoUrl: _l, updatedAt: _u, ...values } = settings;
    const saved = await send('PUT', '/api/settings', admin, { ...values, crewSeesPrices: false });
    expect(saved.statusCode, saved.body).toBe(200);
    // The crew's materials list is the price book's materials (decision 032); its services are not on it.
    const listed = await send('POST', '/api/price-book', admin, {
      kind: 'material',
      name: 'Gate hinge',
      unit: 'each',
      unitPrice: 12.5,
      taxable: true,
    });
    expect(listed.statusCode, listed.body).toBe(201);
    const service = { kind: 'service', name: 'Gate hinge', unit: 'job', unitPrice: 80, taxable: false };
    expect((await send('POST', '/api/price-book', admin, service)).statusCode).toBe(201);
    const hinge = randomUUID();
    const screws = randomUUID();
    await send('PUT', `/api/my/jobs/${jobId}/materials/${hinge}`, alex.auth, { name: 'gate hinge', quantity: 2 });
    // The crew cannot set a price they cannot see.
    await send('PUT', `/api/my/jobs/${jobId}/materials/${screws}`, alex.auth, {
      name: 'Deck screws',
      quantity: 1,
      unitPrice: 999,
    });
    const crewView = await record(jobId);
    expect(crewView.pricesShown).toBe(false);
    expect(crewView.priceList).toEqual([{ name: 'Gate hinge', unitPrice: null }]);
    expect(crewView.materials.map((m: { unitPrice: unknown }) => m.unitPrice)).toEqual([null, null]);
    let office = (await send('GET', `/api/jobs/${jobId}/record`, admin)).json();
    expect(office.materials.map((m: { unitPrice: unknown }) => m.unitPrice)).toEqual([12.5, null]);
    await send('PUT', `/api/jobs/${jobId}/materials/${screws}`, admin, {
      name: 'Deck screws',
      quantity: 1,
      unitPrice: 8.99,
    });
    office = (await send('GET', `/api/jobs/${jobId}/record`, admin)).json();
    expect(office.materials[1]).toMatchObject({
      name: 'Deck screws',
      quantity: 1,
      unitPrice: 8.99,
      addedBy: 'Alex Rivera',
    });
    // A crew change of quantity keeps the office's price.
    await send('PUT', `/api/my/jobs/${jobId}/materials/${screws}`, alex.auth, { name: 'Deck screws', quantity: 3 });
    office = (await send('GET', `/api/jobs/${jobId}/record`, admin)).json();
    expect(office.materials[1]).toMatchObject({ quantity: 3, unitPrice: 8.99 });
    await send('PUT', '/api/settings', admin, { ...values, crewSeesPrices: true });
    await send('DELETE', `/api/price-book/${listed.json()._id}`, admin);
    expect((await record(jobId)).materials[1].unitPrice).toBe(8.99);
  });

  // Issue 33 (decision 042): the owner may let Crew leads see prices while the rest of the crew does not.
  it('shows prices to a Crew lead on the job only when Settings let Crew leads see them', async () => {
    const jobId = await alexJob();
    const lead = await createUserAndSignIn(t, 'crew_lead');
    const assigned = await send('POST', `/api/jobs/${jobId}/assign`, admin, {
      workers: [{ _id: alex.id }, { _id: lead.user.id }],
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const { logoUrl: _l, updatedAt: _u, ...values } = (await send('GET', '/api/settings', admin)).json();
    const setPrices = async (crewSeesPrices: boolean, crewLeadsSeePrices: boolean) =>
      expect(
        (await send('PUT', '/api/settings', admin, { ...values, crewSeesPrices, crewLeadsSeePrices })).statusCode,
      ).toBe(200);
    const tape = randomUUID();
    await setPrices(false, false);
    expect((await record(jobId, bearer(lead.token))).pricesShown).toBe(false);
    await send('PUT', `/api/my/jobs/${jobId}/materials/${tape}`, bearer(lead.token), {
      name: 'Painter tape',
      quantity: 1,
      unitPrice: 50,
    });
    expect((await record(jobId, bearer(lead.token))).materials[0].unitPrice).toBeNull();

    await setPrices(false, true);
    const leadView = await record(jobId, bearer(lead.token));
    expect(leadView.pricesShown).toBe(true);
    await send('PUT', `/api/my/jobs/${jobId}/materials/${tape}`, bearer(lead.token), {
      name: 'Painter tape',
      quantity: 2,
      unitPrice: 6.25,
    });
    expect((await record(jobId, bearer(lead.token))).materials[0]).toMatchObject({ quantity: 2, unitPrice: 6.25 });
    // The rest of the crew still sees none.
    const crewView = await record(jobId);
    expect(crewView.pricesShown).toBe(false);
    expect(crewView.materials[0].unitPrice).toBeNull();
    await setPrices(true, false);
    expect((await record(jobId)).materials[0].unitPrice).toBe(6.25);
  });

  it('stores photos re-encoded without their GPS position, once per id, behind signed addresses', async () => {
    const jobId = await alexJob();
    const photoId = randomUUID();
    const jpeg = await makeJpeg({ withGps: true });
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    for (let i = 0; i < 2; i++) {
      const res = await send('PUT', `/api/my/jobs/${jobId}/photos/${photoId}`, alex.auth, {
        stage: 'before',
        image: dataUrl('image/jpeg', jpeg),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const rows = await t.database.db.select().from(jobPhotos).where(eq(jobPhotos.jobId, jobId));
    expect(rows).toHaveLength(1);
    expect((await sharp(rows[0]!.data).metadata()).exif).toBeUndefined();
    const [photo] = (await send('GET', `/api/jobs/${jobId}/record`, admin)).json().photos;
    expect(photo).toMatchObject({ _id: photoId, stage: 'before', width: 640, height: 480 });
    const file = await t.app.inject({ method: 'GET', url: photo.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect((await t.app.inject({ method: 'GET', url: photo.url.replace(/sig=./, 'sig=x') })).statusCode).toBe(401);
    const notAPhoto = await send('PUT', `/api/my/jobs/${jobId}/photos/${randomUUID()}`, alex.auth, {
      stage: 'after',
      image: dataUrl('image/jpeg', Buffer.from('not a picture at all')),
    });
    expect(notAPhoto.statusCode).toBe(400);
    expect(notAPhoto.json().code).toBe('INVALID_IMAGE');
  });

  it('completes the job: the report (checklist, time, materials, photos, signature; not the notes for the office) goes to the client and the owner', async () => {
    const jobId = await alexJob();
    const view = await record(jobId);
    await send('PATCH', `/api/my/jobs/${jobId}/status`, alex.auth, { status: 'In Progress' });
    await send('PUT', `/api/my/jobs/${jobId}/checklist/${view.checklist[1]._id}`, alex.auth, { text: 'x', done: true });
    await send('PUT', `/api/my/jobs/${jobId}/time/${randomUUID()}`, alex.auth, {
      kind: 'timer',
      startedAt: new Date(Date.now() - 125 * 60_000).toISOString(),
    });
    await send('PUT', `/api/my/jobs/${jobId}/materials/${randomUUID()}`, alex.auth, {
      name: 'Post anchor',
      quantity: 2,
    });
    await send('PUT', `/api/my/jobs/${jobId}/notes`, alex.auth, { notes: 'The latch sticks in wet weather.' });
    for (const stage of ['before', 'after'])
      await send('PUT', `/api/my/jobs/${jobId}/photos/${randomUUID()}`, alex.auth, {
        stage,
        image: dataUrl('image/jpeg', await makeJpeg()),
      });
    const badSignature = await send('PUT', `/api/my/jobs/${jobId}/signature`, alex.auth, {
      name: 'Pat Client',
      image: dataUrl('image/png', Buffer.from('nope')),
    });
    expect(badSignature.statusCode).toBe(400);
    const signed = await send('PUT', `/api/my/jobs/${jobId}/signature`, alex.auth, {
      name: 'Pat Client',
      image: dataUrl('image/png', await makePng(600, 200)),
    });
    expect(signed.statusCode, signed.body).toBe(200);

    const [first, second] = await Promise.all([
      send('POST', `/api/my/jobs/${jobId}/complete`, alex.auth),
      send('POST', `/api/my/jobs/${jobId}/complete`, alex.auth),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 200].sort());
    expect(first.json().status).toBe('Completed');

    const office = (await send('GET', `/api/jobs/${jobId}/record`, admin)).json();
    expect(office.timeTotals[0].minutes).toBeGreaterThanOrEqual(125);
    expect(office.signature).toMatchObject({ name: 'Pat Client' });
    expect((await t.app.inject({ method: 'GET', url: office.signature.imageUrl })).headers['content-type']).toBe(
      'image/png',
    );
    const report = await t.app.inject({ method: 'GET', url: office.report.url });
    expect(report.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(report.rawPayload);
    for (const expected of [
      'Job report',
      'Paint × 2',
      'Rehang the gate (3.5 h)',
      'Alex Rivera',
      '2 h 5 min',
      'Post anchor',
      'Photos before',
      'Photos after',
      'Signed by Pat Client',
    ])
      expect(text).toContain(expected);
    // The sold work a completed job did is not "Not done"; the crew's notes are for the office only.
    expect(text).not.toContain('Not done');
    expect(text).not.toContain('The latch sticks in wet weather.');
    const images = await pdfImages(report.rawPayload);
    expect(images.filter((i) => i.width === 640 && i.height === 480)).toHaveLength(2);
    expect(images.some((i) => i.width === 600 && i.height === 200)).toBe(true);

    // Once, to each: two completions at once made one report.
    const [stored] = await t.database.db.select().from(jobRecords).where(eq(jobRecords.jobId, jobId));
    expect(stored!.report).not.toBeNull();
    const client = await waitFor(
      () => smtp.to(clientEmails.get(jobId)!).find((m) => m.parsed.subject?.startsWith('Your job report')),
      { what: 'client report' },
    );
    expect(client.parsed.attachments[0]!.contentType).toBe('application/pdf');
    const owner = await waitFor(
      () => smtp.to('owner@handyman.test').find((m) => m.parsed.subject?.includes('completed')),
      {
        what: 'owner report',
      },
    );
    expect(owner.parsed.attachments).toHaveLength(1);
    expect(owner.parsed.text).toContain('The latch sticks in wet weather.');
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to(clientEmails.get(jobId)!)).toHaveLength(1);
    expect(
      smtp.to('owner@handyman.test').filter((m) => m.parsed.subject?.includes(jobId.slice(-9).toUpperCase())),
    ).toHaveLength(1);

    // A completed job's record no longer changes from the crew.
    const late = await send('PUT', `/api/my/jobs/${jobId}/notes`, alex.auth, { notes: 'late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('JOB_CLOSED');
  });

  it('makes the report when the office completes the job too (one way to complete)', async () => {
    const jobId = await alexJob();
    await send('PATCH', `/api/jobs/${jobId}/status`, admin, { status: 'In Progress' });
    const done = await send('PATCH', `/api/jobs/${jobId}/status`, admin, { status: 'Completed' });
    expect(done.statusCode, done.body).toBe(200);
    const office = (await send('GET', `/api/jobs/${jobId}/record`, admin)).json();
    expect(office.report).not.toBeNull();
    const text = await pdfText((await t.app.inject({ method: 'GET', url: office.report.url })).rawPayload);
    expect(text).toContain('The client did not sign on site.');
    await waitFor(
      () => smtp.to(clientEmails.get(jobId)!).find((m) => m.parsed.subject?.startsWith('Your job report')),
      {
        what: 'client report',
      },
    );
  });

  // Issue 25.2: a completion is one change: when it fails, nothing of it stays (its running timers included).
  it('a completion that fails leaves the job and its running timer as they were', async () => {
    const jobId = await alexJob();
    await send('PATCH', `/api/my/jobs/${jobId}/status`, alex.auth, { status: 'In Progress' });
    const timer = randomUUID();
    await send('PUT', `/api/my/jobs/${jobId}/time/${timer}`, alex.auth, {
      kind: 'timer',
      startedAt: new Date(Date.now() - 30 * 60_000).toISOString(),
    });
    // The outbox refuses this job's mail (a fault mid-way through the completion's transaction).
    const email = clientEmails.get(jobId)!;
    const run = (statement: string) => t.database.db.execute(sql.raw(statement));
    await run(`create function refuse_mail_${kind}() returns trigger language plpgsql as $$ begin
      if new.to_address = '${email}' then raise exception 'outbox refused'; end if; return new; end $$`);
    await run(`create trigger refuse_mail_${kind} before insert on mail_outbox
      for each row execute function refuse_mail_${kind}()`);
    try {
      const done = await send('PATCH', `/api/my/jobs/${jobId}/status`, alex.auth, { status: 'Completed' });
      expect(done.statusCode).toBe(500);
    } finally {
      await run(`drop trigger refuse_mail_${kind} on mail_outbox`);
      await run(`drop function refuse_mail_${kind}()`);
    }
    const [entry] = await t.database.db.select().from(jobTimeEntries).where(eq(jobTimeEntries.id, timer));
    expect(entry!.endedAt).toBeNull();
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(job!.status).toBe('In Progress');
  });

  it('puts a worker’s time on the visit they are on, and refuses a visit of another job', async () => {
    const jobId = await alexJob();
    const start = wallTimeIn(ZONE, new Date());
    // The whole business day, so it holds this moment whenever the test runs.
    const booked = await send('POST', `/api/jobs/${jobId}/visits`, admin, {
      date: start.date,
      start: '00:00',
      end: '23:59',
      workerIds: [alex.id],
      confirm: true,
    });
    expect(booked.statusCode, booked.body).toBe(201);
    await send('PUT', `/api/my/jobs/${jobId}/time/${randomUUID()}`, alex.auth, {
      kind: 'timer',
      startedAt: new Date().toISOString(),
    });
    await send('PUT', `/api/my/jobs/${jobId}/time/${randomUUID()}`, alex.auth, {
      kind: 'hours',
      workDate: start.date,
      hours: 1,
    });
    const view = await record(jobId);
    expect(view.time.map((t: { visitId: string }) => t.visitId)).toEqual([booked.json()._id, booked.json()._id]);
    const other = await alexJob();
    const wrong = await send('PUT', `/api/my/jobs/${other}/time/${randomUUID()}`, alex.auth, {
      kind: 'hours',
      workDate: start.date,
      hours: 1,
      visitId: booked.json()._id,
    });
    expect(wrong.statusCode).toBe(400);
  });
});
