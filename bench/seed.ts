import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client';

/** Seeded request n's id. */
export const seededRequestId = (n: number) =>
  (1_600_000_000 + n).toString(16).padStart(8, '0') + n.toString(16).padStart(16, '0');

/** The seeded request with a long history (request 1, whose quote is QT00000001), and how many steps it has. */
export const TIMELINE_REQUEST = seededRequestId(1);
export const TIMELINE_STEPS = 403;

/**
 * Fills a fresh database the way a few busy years would: 100,000 clients, each with a property and
 * a quote request (one with 403 steps in its history), 10,000 jobs and 500 staff accounts, written by the database itself
 * (generate_series) so seeding takes seconds.
 */
export async function seed(
  db: Db,
  passwordHash: string,
  counts = {
    quoteRequests: 100_000,
    jobs: 10_000,
    users: 500,
    visits: 10_000,
    quotes: 20_000,
    invoices: 15_000,
    payments: 25_000,
    auditEntries: 200_000,
  },
) {
  await db.execute(sql`
    insert into clients (id, name, email, phone, phone_digits, created_at, updated_at)
    select lpad(to_hex(1300000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           (array['Alex','Sam','Jordan','Taylor','Morgan','Casey','Riley','Jamie'])[1 + g % 8] || ' ' ||
             (array['Smith','Garcia','Nguyen','Patel','Johnson','Lee','Brown','Lopez','Kim','Ortiz','Reyes','Chen'])[1 + (g / 8) % 12] || ' ' || g,
           'client' || g || '@home.test', '916-555-' || lpad((g % 10000)::text, 4, '0'),
           '916555' || lpad((g % 10000)::text, 4, '0'), now() - make_interval(mins => g), now()
    from generate_series(1, ${counts.quoteRequests}) g`);
  await db.execute(sql`
    insert into client_addresses (id, client_id, street, city, state, zip)
    select lpad(to_hex(1200000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           lpad(to_hex(1300000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           g || ' Main St', (array['Sacramento','Folsom','Davis','Roseville','Elk Grove'])[1 + g % 5], 'CA', '95814'
    from generate_series(1, ${counts.quoteRequests}) g`);
  await db.execute(sql`
    update clients c set search_text = lower(concat_ws(' ', c.name, c.email, c.phone, regexp_replace(c.phone, '[^0-9]', '', 'g'),
      a.street, a.city, a.state, a.zip))
    from client_addresses a where a.client_id = c.id`);
  await db.execute(sql`
    insert into quote_requests (id, quote_number, contact_name, contact_email, contact_phone, street, city, state, zip, notes, status, created_at)
    select lpad(to_hex(1600000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           'Q' || upper(right(lpad(to_hex(g), 16, '0'), 9)),
           (array['Alex','Sam','Jordan','Taylor','Morgan','Casey','Riley','Jamie'])[1 + g % 8] || ' ' ||
             (array['Smith','Garcia','Nguyen','Patel','Johnson','Lee','Brown','Lopez','Kim','Ortiz','Reyes','Chen'])[1 + (g / 8) % 12] || ' ' || g,
           'client' || g || '@home.test', '916-555-' || lpad((g % 10000)::text, 4, '0'),
           g || ' Main St', 'Sacramento', 'CA', '95814', 'Seeded request ' || g,
           (array['Pending','Accepted','Quote Sent','Declined'])[1 + g % 4],
           now() - make_interval(mins => g)
    from generate_series(1, ${counts.quoteRequests}) g`);
  await db.execute(sql`
    update quote_requests set client_id = lpad(to_hex(1300000000 + g), 8, '0') || lpad(to_hex(g), 16, '0')
    from generate_series(1, ${counts.quoteRequests}) g
    where quote_requests.id = lpad(to_hex(1600000000 + g), 8, '0') || lpad(to_hex(g), 16, '0')`);
  await db.execute(sql`
    insert into jobs (id, contact_name, contact_email, contact_phone, street, city, state, zip, notes, status, created_at)
    select lpad(to_hex(1500000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           'Job Client ' || g, 'job' || g || '@home.test', '916-555-0000', g || ' Oak Ave', 'Davis', 'CA', '95616', 'Seeded job ' || g,
           (array['Not Started','In Progress','Completed','Cancelled'])[1 + g % 4], now() - make_interval(mins => g)
    from generate_series(1, ${counts.jobs}) g`);
  await db.execute(sql`
    insert into users (id, username, password_hash, full_name, email, team_role, tags)
    select lpad(to_hex(1400000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), 'crew' || g, ${passwordHash}, 'Crew Member ' || g,
           'crew' || g || '@crew.test', 'crew', array['Painting']
    from generate_series(1, ${counts.users}) g`);
  // Two years of visits (a year back, a year ahead), one every 105 minutes: about 420 a month.
  await db.execute(sql`
    insert into visits (id, job_id, starts_at, ends_at, notes)
    select lpad(to_hex(1100000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           lpad(to_hex(1500000000 + 1 + g % ${counts.jobs}), 8, '0') || lpad(to_hex(1 + g % ${counts.jobs}), 16, '0'),
           date_trunc('hour', now() - interval '365 days') + make_interval(mins => g * 105),
           date_trunc('hour', now() - interval '365 days') + make_interval(mins => g * 105 + 120),
           'Seeded visit ' || g
    from generate_series(1, ${counts.visits}) g`);
  await db.execute(sql`
    insert into visit_workers (visit_id, user_id)
    select lpad(to_hex(1100000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           lpad(to_hex(1400000000 + 1 + g % ${counts.users}), 8, '0') || lpad(to_hex(1 + g % ${counts.users}), 16, '0')
    from generate_series(1, ${counts.visits}) g`);
  // Quotes for the first 20,000 requests, five material lines each (issue 27).
  await db.execute(sql`
    insert into quotes (id, quote_number, quote_request_id, client_name, project_name, status, subtotal_cents, tax_cents,
                        total_cents, valid_until, created_at)
    select lpad(to_hex(1700000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), 'QT' || lpad(g::text, 8, '0'),
           lpad(to_hex(1600000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), 'Client ' || g, 'Seeded project ' || g,
           (array['Pending','Accepted','Declined','Requested More Info'])[1 + g % 4], 100000, 8000, 108000,
           (now() + interval '30 days')::date, now() - make_interval(mins => g) + interval '2 hours'
    from generate_series(1, ${counts.quotes}) g`);
  await db.execute(sql`
    insert into quote_materials (id, quote_id, position, name, quantity, unit_price_cents)
    select lpad(to_hex(1800000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           lpad(to_hex(1700000000 + 1 + (g - 1) / 5), 8, '0') || lpad(to_hex(1 + (g - 1) / 5), 16, '0'),
           (g - 1) % 5, 'Seeded material ' || g, 2, 10000
    from generate_series(1, ${counts.quotes * 5}) g`);
  // Invoices: a bill for each of the first jobs, then deposit invoices; 4 in 5 sent (numbered), the
  // rest drafts; a third of the sent ones past due. Payments spread over the sent ones.
  await db.execute(sql`
    insert into invoices (id, number, job_id, state, kind, client_name, client_email, address, tax_rate_basis_points,
                          subtotal_cents, tax_cents, total_cents, issue_date, due_date, sent_at, created_at)
    select lpad(to_hex(1900000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           case when g % 5 <> 0 then 'INV-' || (2024 + g % 3) || '-' || lpad(g::text, 5, '0') end,
           lpad(to_hex(1500000000 + 1 + (g - 1) % ${counts.jobs}), 8, '0') || lpad(to_hex(1 + (g - 1) % ${counts.jobs}), 16, '0'),
           case when g % 5 <> 0 then 'Sent' else 'Draft' end,
           case when g <= ${counts.jobs} then 'final' else 'deposit' end,
           'Invoice Client ' || g, 'billing' || g || '@home.test', g || ' Oak Ave, Davis, CA 95616', 800,
           100000, 8000, 108000,
           case when g % 5 <> 0 then (now() - make_interval(days => g % 90))::date end,
           case when g % 5 <> 0 then (now() - make_interval(days => g % 90) + interval '14 days')::date end,
           case when g % 5 <> 0 then now() - make_interval(days => g % 90) end,
           now() - make_interval(mins => g * 7)
    from generate_series(1, ${counts.invoices}) g`);
  await db.execute(sql`
    insert into payments (id, invoice_id, method, paid_on, amount_cents, recorded_by)
    select lpad(to_hex(2000000000 + g), 8, '0') || lpad(to_hex(i), 16, '0') || lpad(to_hex(g), 8, '0'),
           lpad(to_hex(1900000000 + i), 8, '0') || lpad(to_hex(i), 16, '0'),
           (array['cash','check','card in person'])[1 + g % 3], (now() - make_interval(days => g % 400))::date, 36000, null
    from generate_series(1, ${counts.payments}) g,
         lateral (select 1 + (g * 7) % ${counts.invoices} as i) pick
    where pick.i % 5 <> 0`);
  // Two years of the audit trail by 30 people.
  await db.execute(sql`
    insert into audit_log (id, at, user_id, actor_name, ip, kind, action, route)
    select lpad(to_hex(2100000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           now() - make_interval(secs => g * 315),
           lpad(to_hex(1400000000 + 1 + g % 30), 8, '0') || lpad(to_hex(1 + g % 30), 16, '0'),
           'Crew Member ' || (1 + g % 30), '203.0.113.' || (g % 250),
           (array['quotes','jobs','visits','invoices','requests','sign-in'])[1 + g % 6], 'Seeded action ' || g, 'GET /api/seeded'
    from generate_series(1, ${counts.auditEntries}) g`);
  // A chatty client's request (issue 27): 403 steps over four weeks, a question, then the
  // office's answer and its e-mail (delivered: the relay leaves it alone), and so on.
  await db.execute(sql`
    insert into mail_outbox (id, to_address, subject, text, html, sent, attempts, sent_at, next_attempt_at, created_at)
    select lpad(to_hex(2200000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), 'client1@home.test',
           'Re: your quote QT00000001', 'Seeded answer ' || g, '<p>Seeded answer ' || g || '</p>', true, 1,
           now() - make_interval(mins => (${TIMELINE_STEPS} - g) * 100), now() - make_interval(mins => (${TIMELINE_STEPS} - g) * 100),
           now() - make_interval(mins => (${TIMELINE_STEPS} - g) * 100)
    from generate_series(2, ${TIMELINE_STEPS}, 2) g`);
  await db.execute(sql`
    insert into quote_request_events (id, quote_request_id, kind, actor, user_id, quote_number, message, mail_id, created_at)
    select lpad(to_hex(2300000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'),
           ${TIMELINE_REQUEST},
           case when g = 1 then 'request-created' when g % 2 = 0 then 'answer' else 'question' end,
           case when g % 2 = 0 then 'staff' else 'client' end,
           case when g % 2 = 0 then lpad(to_hex(1400000000 + 1), 8, '0') || lpad(to_hex(1), 16, '0') end,
           case when g > 1 then 'QT00000001' end,
           case when g > 1 then 'Seeded message ' || g || ': could the crew also look at the back gate latch?' end,
           case when g % 2 = 0 then lpad(to_hex(2200000000 + g), 8, '0') || lpad(to_hex(g), 16, '0') end,
           now() - make_interval(mins => (${TIMELINE_STEPS} - g) * 100)
    from generate_series(1, ${TIMELINE_STEPS}) g`);
  // Online booking (issue 31): ten of the crew take estimates, three windows every day, 30 days ahead.
  const windows = JSON.stringify(
    ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].flatMap((day) => [
      { day, start: '08:00', end: '10:00' },
      { day, start: '10:00', end: '12:00' },
      { day, start: '13:00', end: '15:00' },
    ]),
  );
  await db.execute(sql`
    insert into booking_settings (id, windows, lead_business_days, horizon_days, online_booking, estimate_worker_ids)
    select 1, ${windows}::jsonb, 0, 30, true,
           array_agg(lpad(to_hex(1400000000 + g), 8, '0') || lpad(to_hex(g), 16, '0') order by g)
    from generate_series(1, 10) g`);
  // As autovacuum would have done on a live system: statistics and the visibility map.
  await db.execute(sql`vacuum analyze`);
  // The count trigger updated the four kept-count rows 100,000 times inside one transaction, leaving
  // 5 MB of dead versions; on a live system each request is its own transaction and page pruning
  // keeps that table at one page. Compact it to that state.
  await db.execute(sql`vacuum full quote_request_counts`);
  await db.execute(sql`vacuum full client_counts`);
  // Likewise the kept paid amounts (one update per payment) and the kept people of the trail.
  await db.execute(sql`vacuum full invoices`);
  await db.execute(sql`vacuum full audit_people`);
  // VACUUM FULL leaves the visibility map empty (only a plain vacuum sets it): set it again, or every
  // index-only count (Overdue's) would read the heap as no live system's would.
  await db.execute(sql`vacuum analyze`);
}
