import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN } from './constants';

export async function apiToken(request: APIRequestContext, username = E2E_ADMIN.username, password = E2E_ADMIN.password): Promise<string> {
  const res = await request.post('/api/login', { data: { username, password } });
  if (!res.ok()) throw new Error(`login failed: ${res.status()} ${await res.text()}`);
  return (await res.json()).token;
}

/** Signs the browser in by storing a real token, as the sign-in page does. */
export async function signInAs(page: Page, token: string) {
  await page.addInitScript((t) => window.localStorage.setItem('jwt', t), token);
}

let n = 0;

/** A new employee made through the admin API; returns its credentials and id. */
export async function createEmployee(request: APIRequestContext, fields: { fullName?: string; tags?: string[] } = {}) {
  const admin = await apiToken(request);
  const username = `crew${Date.now().toString(36)}${++n}`;
  const password = 'crew-password-1';
  const res = await request.post('/api/users/adduser', {
    headers: { authorization: `Bearer ${admin}` },
    data: { username, password, fullName: fields.fullName ?? `Crew Member ${n}`, email: '', phone: '', role: 'employee', tags: fields.tags ?? [] },
  });
  if (res.status() !== 201) throw new Error(await res.text());
  return { username, password, id: (await res.json())._id as string };
}

/** A quote request sent through the public API, as a visitor would. */
export async function createQuoteRequest(request: APIRequestContext, name: string, extra: Record<string, unknown> = {}) {
  const res = await request.post('/api/quoterequest/create', {
    data: {
      contactPerson: { name, email: `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`, phone: '916-555-0199' },
      address: { street: '42 Capitol Mall', city: 'Sacramento', state: 'CA', zip: '95814' },
      notes: 'Replace two interior doors and touch up the trim.',
      preferredEndDate: '2027-01-15',
      ...extra,
    },
  });
  if (res.status() !== 201) throw new Error(await res.text());
  return (await res.json()).quoteRequest as { _id: string; quoteNumber: string };
}
