import { newId } from '../../src/server/db/ids';
import { jobs, quoteLabor, quoteMaterials, quotes } from '../../src/server/db/schema';
import { quoteTotals } from '../../src/shared/money';
import type { JobStatus } from '../../src/shared/constants';
import type { TestApp } from './test-app';

let n = 0;

export function quoteRequestBody(overrides: { name?: string; email?: string } = {}) {
  n++;
  return {
    contactPerson: {
      name: overrides.name ?? `Client ${n}`,
      email: overrides.email ?? `client${n}@home.test`,
      phone: '916-555-0100',
    },
    address: { street: `${n} Main St`, city: 'Sacramento', state: 'CA', zip: '95814' },
    notes: `Job number ${n}`,
  };
}

/** A quote request created through the public API, as a visitor would. */
export async function createQuoteRequest(
  t: TestApp,
  overrides: Parameters<typeof quoteRequestBody>[0] & { images?: string[] } = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/quoterequest/create',
    payload: { ...quoteRequestBody(overrides), images: overrides.images ?? [] },
  });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return res.json().quoteRequest as { _id: string; quoteNumber: string };
}

/** A job (optionally with a quote of known lines) written straight to the database. */
export async function insertJob(
  t: TestApp,
  fields: { name?: string; status?: JobStatus; withQuote?: boolean; quoteRequestId?: string } = {},
) {
  n++;
  let quoteId: string | null = null;
  if (fields.withQuote && fields.quoteRequestId) {
    const materials = [{ name: 'Paint', unitPriceCents: 3499, quantity: 2 }];
    const labor = [{ hourlyRateCents: 6500, hours: 3.5 }];
    const totals = quoteTotals(materials, labor);
    quoteId = newId();
    await t.database.db.insert(quotes).values({
      id: quoteId,
      quoteId: `QT${quoteId.slice(-8).toUpperCase()}`,
      quoteRequestId: fields.quoteRequestId,
      clientName: 'C',
      projectName: 'Fence',
      status: 'Accepted',
      ...totals,
    });
    await t.database.db.insert(quoteMaterials).values(
      materials.map((m, position) => ({
        id: newId(),
        quoteId: quoteId!,
        position,
        name: m.name,
        unitPriceCents: m.unitPriceCents,
        quantity: String(m.quantity),
      })),
    );
    await t.database.db.insert(quoteLabor).values(
      labor.map((l, position) => ({
        id: newId(),
        quoteId: quoteId!,
        position,
        hourlyRateCents: l.hourlyRateCents,
        hours: String(l.hours),
      })),
    );
  }
  const id = newId();
  await t.database.db.insert(jobs).values({
    id,
    quoteId,
    contactName: fields.name ?? `Job Client ${n}`,
    contactEmail: `job${n}@home.test`,
    contactPhone: '916-555-0111',
    street: `${n} Oak Ave`,
    city: 'Davis',
    state: 'CA',
    zip: '95616',
    notes: 'Replace the fence gate',
    status: fields.status ?? 'Not Started',
  });
  return id;
}
