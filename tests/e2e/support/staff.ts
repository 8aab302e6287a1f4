import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { areaOf, TEAM_ROLE_LABELS, type TeamRole } from '#shared/roles';
import { E2E_ADMIN } from './constants';
import { futureDate } from '../../helpers/dates';

/** The admin's token per server, for this worker: a sign-in is an argon2 check, the server's costliest call. */
const adminTokens = new Map<string, Promise<string>>();

/**
 * A token for `username` (the e2e admin by default), signed in through the API. The admin's is signed
 * in once per worker and server and reused (`fresh` for a test that ends the session it is given);
 * anyone else's is a new sign-in, which tests of the trail count on.
 */
export async function apiToken(
  request: APIRequestContext,
  username = E2E_ADMIN.username,
  password = E2E_ADMIN.password,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<string> {
  const signIn = async () => {
    const res = await request.post('/api/login', { data: { username, password } });
    if (!res.ok()) throw new Error(`login failed: ${res.status()} ${await res.text()}`);
    return (await res.json()).token as string;
  };
  if (fresh || username !== E2E_ADMIN.username || password !== E2E_ADMIN.password) return signIn();
  const server = String(test.info().project.use.baseURL);
  let token = adminTokens.get(server);
  if (!token) {
    token = signIn();
    adminTokens.set(server, token);
    token.catch(() => adminTokens.delete(server));
  }
  return token;
}

/** Signs the browser in by storing a real token, as the sign-in page does. */
export async function signInAs(page: Page, token: string) {
  await page.addInitScript((t) => window.localStorage.setItem('jwt', t), token);
}

/**
 * Opens `username`'s Edit User dialog from the Users page: searches, waits until the list holds that one
 * user (the rows move when the search lands, and a tap before that can hit the row that moved under it),
 * then taps Edit.
 */
export async function openUserDialog(page: Page, username: string) {
  await page.getByLabel('Search').fill(username);
  await expect(page.getByRole('status').filter({ hasText: /^1 user$/ })).toBeVisible();
  await page.getByRole('button', { name: `Edit ${username}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await expect(dialog).toBeVisible();
  return dialog;
}

let n = 0;
/** Unique across the workers that run at once: each counts from 0, and two may start in the same ms. */
const worker = process.env.TEST_WORKER_INDEX ?? '0';

/** A new employee made through the admin API; returns its credentials and id. */
export async function createEmployee(request: APIRequestContext, fields: { fullName?: string; tags?: string[] } = {}) {
  const admin = await apiToken(request);
  const username = `crew${Date.now().toString(36)}w${worker}n${++n}`;
  const password = 'crew-password-1';
  const res = await request.post('/api/users/adduser', {
    headers: { authorization: `Bearer ${admin}` },
    data: {
      username,
      password,
      fullName: fields.fullName ?? `Crew Member ${n}`,
      email: '',
      phone: '',
      role: 'employee',
      tags: fields.tags ?? [],
    },
  });
  if (res.status() !== 201) throw new Error(await res.text());
  return { username, password, id: (await res.json())._id as string };
}

/**
 * A new staff member made through the Owner's API (`label` in the username), an Owner unless another
 * team role is asked for; returns its credentials.
 */
export async function createAdmin(request: APIRequestContext, label: string, teamRole: TeamRole = 'owner') {
  const username = `office${Date.now().toString(36)}w${worker}n${++n}${label}`;
  const password = 'office-password-1';
  const res = await request.post('/api/users/adduser', {
    headers: { authorization: `Bearer ${await apiToken(request)}` },
    data: {
      username,
      password,
      fullName: `${TEAM_ROLE_LABELS[teamRole]} ${label}`,
      email: '',
      phone: '',
      role: areaOf(teamRole),
      teamRole,
      tags: [],
    },
  });
  if (res.status() !== 201) throw new Error(await res.text());
  return { username, password, id: (await res.json())._id as string };
}

/** A quote request sent through the public API, as a visitor would. */
export async function createQuoteRequest(
  request: APIRequestContext,
  name: string,
  extra: Record<string, unknown> = {},
) {
  const res = await request.post('/api/quoterequest/create', {
    data: {
      contactPerson: { name, email: `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`, phone: '916-555-0199' },
      address: { street: '42 Capitol Mall', city: 'Sacramento', state: 'CA', zip: '95814' },
      notes: 'Replace two interior doors and touch up the trim.',
      preferredEndDate: futureDate(54),
      ...extra,
    },
  });
  if (res.status() !== 201) throw new Error(await res.text());
  return (await res.json()).quoteRequest as { _id: string; quoteNumber: string; preferredEndDate: string | null };
}

/** A quote sent through the admin API for a fresh request; returns the client's link from the e-mail. */
export async function sentQuoteLink(
  request: APIRequestContext,
  name: string,
  waitForMail: (to: string, subject: RegExp) => Promise<{ text?: string | false }>,
  extra: Record<string, unknown> = {},
  requestFields: Record<string, unknown> = {},
) {
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const created = await createQuoteRequest(request, name, requestFields);
  await request.put(`/api/quoterequest/markAccepted/${created._id}`, { headers: admin });
  const body = {
    quoteRequestId: created._id,
    clientName: name,
    projectName: 'Deck repair',
    materials: [{ name: 'Deck boards', unitPrice: 12.5, quantity: 10 }],
    labor: [],
    ...extra,
  };
  const sent = await request.post('/api/quotes/sendQuote', { headers: admin, data: body });
  if (sent.status() !== 201) throw new Error(await sent.text());
  const mail = await waitForMail(`${name.toLowerCase().replace(/\W+/g, '.')}@home.test`, /^Your quote QT/);
  return /http:\/\/127\.0\.0\.1:\d+\/quote\/QT\d{8}\?token=[\w.-]+/.exec(String(mail.text))![0];
}

/** The client accepts the quote of `link` by the API, as its page would. */
async function acceptQuote(request: APIRequestContext, link: URL, name: string) {
  const quoteId = link.pathname.split('/').pop()!;
  const accepted = await request.post(`/api/client-quotes/${quoteId}/answer`, {
    data: { action: 'accept', token: link.searchParams.get('token'), signatureName: name },
  });
  if (accepted.status() !== 200) throw new Error(await accepted.text());
}

/**
 * A sold job (request → quote, by default for 10 deck boards → the client's yes) with this worker on it.
 * `quote` adds to or replaces the quote's fields (more lines, a deposit).
 */
export async function soldJobFor(
  request: APIRequestContext,
  name: string,
  workerId: string,
  waitForMail: (to: string, subject: RegExp) => Promise<{ text?: string | false }>,
  quote: Record<string, unknown> = {},
  /** Fields of the client's request (its photos). */
  requestFields: Record<string, unknown> = {},
) {
  const link = new URL(await sentQuoteLink(request, name, waitForMail, quote, requestFields));
  await acceptQuote(request, link, name);
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const { jobs } = await (
    await request.get(`/api/jobs?page=1&limit=5&search=${encodeURIComponent(name)}`, { headers: admin })
  ).json();
  const jobId = jobs[0]._id as string;
  const assigned = await request.post(`/api/jobs/${jobId}/assign`, {
    headers: admin,
    data: { workers: [{ _id: workerId }] },
  });
  if (assigned.status() !== 200) throw new Error(await assigned.text());
  return jobId;
}

/**
 * The client accepts the quote of `link` (sent with a deposit); returns the client's link to the
 * deposit's invoice, from the e-mail that sends it.
 */
export async function depositInvoiceLink(
  request: APIRequestContext,
  link: URL,
  name: string,
  waitForMail: (to: string, subject: RegExp) => Promise<{ text?: string | false }>,
): Promise<URL> {
  await acceptQuote(request, link, name);
  const mail = await waitForMail(`${name.toLowerCase().replace(/\W+/g, '.')}@home.test`, /^Deposit invoice INV-/);
  return new URL(/https?:\/\/\S+\/invoice\/\S+/.exec(String(mail.text))![0]);
}
