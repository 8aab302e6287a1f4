import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import {
  cancelVisitInput,
  feedAddress,
  helpersInput,
  leadCrewView,
  visitChangeInput,
  visitInput,
  visitRangeQuery,
  visitView,
} from '#shared/schemas/visits';
import { onMyWayInput, onMyWayView } from '#shared/schemas/texts';
import { HttpError } from '../lib/http-errors';
import { onMyWayState, sayOnMyWay } from './on-my-way';
import { feedOwnerOf, feedToken, regenerateFeedToken, type FeedOwner } from '../users';
import { visitFeed, visitInvite } from './ics';
import { checkClientVisitCalendar } from './client-calendar';
import { documentLimit } from '../plugins/rate-limit';
import { RangeCache } from './range-cache';
import { viewOf, visitById, visitsInRange, visitsInRangeJson, visitsOfJob, visitsOfRequest } from './repository';
import { changePlan, plansOfJob, startPlan, stopPlan } from './plans';
import { visitPlanInput, visitPlanList, visitPlanView } from '#shared/schemas/visit-plans';
import { approveVisit, bookVisit, cancelVisit, changeVisit, leadCrew, sequenceOf, setHelpers } from './service';

const idParams = z.object({ id: z.string().max(64) });
const visitList = z.object({ visits: z.array(visitView) });

const gzip = promisify(zlib.gzip);

/**
 * The gzip of each cached answer, made once: the answer's bytes are the cache's own object, so this
 * forgets the gzip when the cache drops the answer.
 */
const gzipped = new WeakMap<Buffer, Buffer>();

/**
 * JSON the database made in the response's shape, sent as it is (no parse, no second serialization);
 * to a client that takes gzip, compressed once per answer rather than on every request.
 */
async function sendJson(request: FastifyRequest, reply: FastifyReply, json: Buffer) {
  reply.type('application/json; charset=utf-8');
  if (json.length < 1024 || !/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.send(json);
  let body = gzipped.get(json);
  if (!body) {
    body = await gzip(json);
    gzipped.set(json, body);
  }
  return reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').send(body);
}

/** Visits: booked from a job or the calendar, moved, cancelled; the crew's own; calendar feeds. */
export async function visitRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['visits'];
  const office = { access: 'office' as const };
  const staff = { access: 'staff' as const };
  const zone = async () => (await app.settings.current()).timeZone;
  // Calendars ask for the same month again and again (every refetch, every device): answered from here
  // while nothing they show has changed.
  const ranges = new RangeCache();
  const feedUrl = (token: string) => `${app.config.PUBLIC_URL}/api/feeds/${token}.ics`;

  r.get(
    '/visits',
    {
      config: office,
      schema: {
        tags,
        summary: 'Visits overlapping a range (a calendar’s visible days), optionally of one worker',
        querystring: visitRangeQuery,
        response: { 200: visitList, 400: errorResponse },
      },
    },
    async (request, reply) => {
      const { from, to, workerId } = request.query;
      return sendJson(
        request,
        reply,
        await visitsInRangeJson(app.db, new Date(from), new Date(to), await zone(), { workerId }, ranges),
      );
    },
  );

  r.get(
    '/jobs/:id/visits',
    {
      config: office,
      schema: { tags, summary: "A job's visits, cancelled ones too", params: idParams, response: { 200: visitList } },
    },
    async (request) => ({
      visits: (await visitsOfJob(app.db, request.params.id, await zone())).map(viewOf),
    }),
  );

  r.get(
    '/quoterequest/:id/visits',
    {
      config: office,
      schema: {
        tags,
        summary: "A request's estimate visits (booked online, issue 31), cancelled ones too",
        params: idParams,
        response: { 200: visitList },
      },
    },
    async (request) => ({
      visits: (await visitsOfRequest(app.db, request.params.id, await zone())).map(viewOf),
    }),
  );

  r.get(
    '/jobs/:id/plans',
    {
      config: office,
      schema: {
        tags,
        summary: "A job's repeating visits (decision 047), stopped ones too",
        params: idParams,
        response: { 200: visitPlanList },
      },
    },
    async (request) => ({ plans: await plansOfJob(app.db, request.params.id, await app.settings.today()) }),
  );

  r.post(
    '/jobs/:id/plans',
    {
      config: { ...office, audit: { kind: 'visits', action: "Set a job's visits to repeat" } },
      schema: {
        tags,
        summary: 'Make a job’s visits repeat: its visits up to the horizon are made at once, the client told once',
        params: idParams,
        body: visitPlanInput,
        response: { 201: visitPlanView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await startPlan(app, request.params.id, request.body)),
  );

  r.post(
    '/plans/:id/change',
    {
      config: { ...office, audit: { kind: 'visits', action: 'Changed repeating visits from a date' } },
      schema: {
        tags,
        summary:
          'Change repeating visits from a date on ("this and following"): the visits before it stay, those from it are made anew, the client told once',
        params: idParams,
        body: visitPlanInput,
        response: { 201: visitPlanView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await changePlan(app, request.params.id, request.body)),
  );

  r.post(
    '/plans/:id/stop',
    {
      config: { ...office, audit: { kind: 'visits', action: 'Stopped repeating visits' } },
      schema: {
        tags,
        summary: 'Stop a job’s repeating visits: those still to come are called off, the client told once',
        params: idParams,
        response: { 200: visitPlanView, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => stopPlan(app, request.params.id),
  );

  r.post(
    '/jobs/:id/visits',
    {
      config: { ...office, audit: { kind: 'visits', action: 'Booked a visit' } },
      schema: {
        tags,
        summary: 'Book a visit (409 VISIT_CONFLICT names busy or unavailable workers; resend with confirm)',
        params: idParams,
        body: visitInput,
        response: { 201: visitView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await bookVisit(app, request.params.id, request.body)),
  );

  r.patch(
    '/visits/:id',
    {
      config: { ...office, audit: { kind: 'visits', action: 'Changed a visit' } },
      schema: {
        tags,
        summary: 'Move, resize or re-crew a visit (the client is told of a new time unless notifyClient is false)',
        params: idParams,
        body: visitChangeInput,
        response: { 200: visitView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => changeVisit(app, request.params.id, request.body),
  );

  r.post(
    '/visits/:id/cancel',
    {
      config: { ...office, audit: { kind: 'visits', action: 'Cancelled a visit' } },
      schema: {
        tags,
        summary: 'Cancel a visit with a reason (the client is told; the reminder is called off)',
        params: idParams,
        body: cancelVisitInput,
        response: { 200: visitView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => cancelVisit(app, request.params.id, request.body.reason),
  );

  r.post(
    '/visits/:id/approve',
    {
      config: { ...office, audit: { kind: 'visits', action: 'Approved a visit booked online' } },
      schema: {
        tags,
        summary: 'Approve an estimate visit booked online (the client gets the booking and its calendar entry)',
        params: idParams,
        response: { 200: visitView, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => approveVisit(app, request.params.id),
  );

  r.get(
    '/my/visits',
    {
      config: staff,
      schema: {
        tags,
        summary: "The signed-in worker's own visits in a range",
        querystring: visitRangeQuery,
        response: { 200: visitList, 400: errorResponse },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const mine = await visitsInRangeJson(
        app.db,
        new Date(from),
        new Date(to),
        await zone(),
        { workerId: request.user!.id },
        ranges,
      );
      return sendJson(request, reply, mine);
    },
  );

  // "On my way" (decision 045): the crew's one tap, once per visit, on the client's channel.
  r.get(
    '/my/visits/:id/on-my-way',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Whether "On my way" can be sent for one of my visits, and how the one sent stands',
        params: idParams,
        response: { 200: onMyWayView, 404: errorResponse },
      },
    },
    (request) => onMyWayState(app, request.params.id, request.user!.id),
  );
  r.post(
    '/my/visits/:id/on-my-way',
    {
      config: { ...staff, audit: { kind: 'visits', action: 'Told the client the crew is on the way' } },
      schema: {
        tags,
        summary: 'Tell the client I am on the way, arriving in 15, 30, 45 or 60 minutes (once per visit)',
        params: idParams,
        body: onMyWayInput,
        response: { 200: onMyWayView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    (request) => sayOnMyWay(app, request.params.id, request.user!.id, request.body.minutes),
  );

  // Crew leads (decision 042): the Crew with them on their visits.
  const leadOnly = (request: FastifyRequest) => {
    if (request.user!.teamRole !== 'crew_lead') throw new HttpError(403, 'Only a Crew lead adds helpers to a visit');
    return request.user!.id;
  };
  r.get(
    '/my/jobs/:id/crew',
    {
      config: staff,
      schema: {
        tags,
        summary: "A Crew lead's coming visits of a job with who is on each, and the Crew they may add",
        params: idParams,
        response: { 200: leadCrewView, 403: errorResponse },
      },
    },
    async (request) => leadCrew(app, request.params.id, leadOnly(request)),
  );
  r.put(
    '/my/visits/:id/helpers',
    {
      config: { ...staff, audit: { kind: 'visits', action: 'Changed the helpers on a visit' } },
      schema: {
        tags,
        summary: 'A Crew lead sets the Crew with them on a visit they are on (409 VISIT_CONFLICT names a busy helper)',
        params: idParams,
        body: helpersInput,
        response: { 200: visitView, 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => setHelpers(app, request.params.id, leadOnly(request), request.body),
  );

  r.get(
    '/calendar-feeds/company',
    {
      config: office,
      schema: { tags, summary: "The company calendar feed's secret address", response: { 200: feedAddress } },
    },
    async () => ({ url: feedUrl(await feedToken(app.db, app.tokens, 'company')) }),
  );
  r.post(
    '/calendar-feeds/company/regenerate',
    {
      config: { ...office, audit: { kind: 'visits', action: "Made a new address for the company's calendar feed" } },
      schema: { tags, summary: 'A new company feed address (the old one stops)', response: { 200: feedAddress } },
    },
    async () => ({ url: feedUrl(await app.db.transaction((tx) => regenerateFeedToken(tx, app.tokens, 'company'))) }),
  );
  r.get(
    '/my/calendar-feed',
    {
      config: staff,
      schema: { tags, summary: "The signed-in worker's feed address", response: { 200: feedAddress } },
    },
    async (request) => ({ url: feedUrl(await feedToken(app.db, app.tokens, { userId: request.user!.id })) }),
  );
  r.post(
    '/my/calendar-feed/regenerate',
    {
      config: { ...staff, audit: { kind: 'visits', action: 'Made a new address for their calendar feed' } },
      schema: {
        tags,
        summary: 'A new feed address for the signed-in worker (the old one stops)',
        response: { 200: feedAddress },
      },
    },
    async (request) => ({
      url: feedUrl(await app.db.transaction((tx) => regenerateFeedToken(tx, app.tokens, { userId: request.user!.id }))),
    }),
  );

  // Calendars subscribe to this address: the token in it is the permission.
  r.get(
    '/feeds/:file',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'An iCalendar feed (the company’s or a worker’s) by its secret address',
        params: z.object({ file: z.string().max(100) }),
        produces: ['text/calendar'],
        response: { 404: errorResponse },
      },
    },
    async (request, reply) => {
      const token = /^([\w-]{16,64})\.ics$/.exec(request.params.file)?.[1];
      const owner: FeedOwner | undefined = token ? await feedOwnerOf(app.db, app.tokens, token) : undefined;
      if (!owner)
        throw new HttpError(404, 'This calendar address is not valid (it may have been replaced)', 'FEED_INVALID');
      const business = await app.settings.current();
      const now = Date.now();
      const records = await visitsInRange(
        app.db,
        new Date(now - 60 * 86_400_000),
        new Date(now + 400 * 86_400_000),
        business.timeZone,
        { workerId: owner === 'company' ? undefined : owner.userId },
      );
      const entries = records.map((record) => ({ visit: viewOf(record), sequence: sequenceOf(record) }));
      const name = owner === 'company' ? `${business.name} visits` : `${business.name}: my visits`;
      return reply
        .type('text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .send(visitFeed(business, name, entries) as never); // Text as it is: no 200 schema.
    },
  );

  // "Add to calendar" on the client's page: one visit's .ics, by an address signed for it.
  r.get(
    '/client-visits/:id/calendar.ics',
    {
      config: { access: 'public', ...documentLimit },
      schema: {
        tags,
        summary: "One visit as an .ics file, from the client's page (a signed address)",
        params: idParams,
        querystring: z.object({ sig: z.string().max(2000).optional() }),
        produces: ['text/calendar'],
        response: { 403: errorResponse, 404: errorResponse },
      },
    },
    async (request, reply) => {
      if (!(await checkClientVisitCalendar(app, request.params.id, request.query.sig)))
        throw new HttpError(403, 'This link is not valid any more: open your page again.', 'LINK_INVALID');
      const business = await app.settings.current();
      const record = await visitById(app.db, request.params.id, business.timeZone);
      if (!record) throw new HttpError(404, 'Visit not found');
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'attachment; filename="visit.ics"')
        .header('cache-control', 'private, no-store')
        .send(visitInvite(business, { visit: viewOf(record), sequence: sequenceOf(record) }) as never);
    },
  );
}
