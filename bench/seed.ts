import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client';

/**
 * Fills a fresh database the way a few busy years would: 100,000 clients, each with a property and
 * a quote request, 10,000 jobs and 500 staff accounts, written by the database itself
 * (generate_series) so seeding takes seconds.
 */
export async function seed(
  db: Db,
  passwordHash: string,
  counts = { quoteRequests: 100_000, jobs: 10_000, users: 500, visits: 10_000 },
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
    insert into users (id, username, password_hash, full_name, email, role, tags)
    select lpad(to_hex(1400000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), 'crew' || g, ${passwordHash}, 'Crew Member ' || g,
           'crew' || g || '@crew.test', 'employee', array['Painting']
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
  // As autovacuum would have done on a live system: statistics and the visibility map.
  await db.execute(sql`vacuum analyze`);
  // The count trigger updated the four kept-count rows 100,000 times inside one transaction, leaving
  // 5 MB of dead versions; on a live system each request is its own transaction and page pruning
  // keeps that table at one page. Compact it to that state.
  await db.execute(sql`vacuum full quote_request_counts`);
  await db.execute(sql`vacuum full client_counts`);
}
