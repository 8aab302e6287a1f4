// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { priceQuote } from '#shared/money';
import type { QuoteView } from '#shared/schemas/quotes';
import type { QuoteRequestDetail } from '#shared/schemas/staff-quote-requests';
import { QuoteBuilder } from '../../src/web/features/quotes/components/quote-builder';
import { loadDraft, saveDraft } from '../../src/web/features/quotes/lib/draft-store';
import { provideServerFetch } from '../../src/web/lib/api-client';
import { renderInApp } from './support/render';

const request: QuoteRequestDetail = {
  _id: 'a1b2c3d4e5f6a1b2c3d4e5f6',
  quoteNumber: 'Q3D4E5F6',
  contactPerson: { name: 'Riley Client', email: 'riley@home.test', phone: '555 0100' },
  address: { street: '915 L St', city: 'Sacramento', state: 'CA', zip: '95814' },
  notes: 'Rehang the side gate. Replace the faucet.',
  preferredEndDate: null,
  quoteStatus: 'Accepted',
  quoteState: null,
  clientId: null,
  quoteRequestDate: '2026-11-01T10:00:00.000Z',
  images: [],
  companyName: '',
  billingAddress: '',
};

/** The API: createNew answers a numbered draft, sendQuote the sent quote; what the builder sent is kept. */
const server = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
const bodyOf = (call: number) => JSON.parse(String(server.mock.calls[call]![1].body)) as Record<string, unknown>;

beforeEach(() => {
  localStorage.clear();
  server.mockReset();
  server.mockImplementation(async (url, init) => {
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    const answer = url.endsWith('/createNew') ? { ...body, quoteId: 'QT12345678' } : { ...body, status: 'Pending' };
    return new Response(JSON.stringify(answer), { status: 200 });
  });
  provideServerFetch(server as unknown as typeof fetch);
});
afterEach(cleanup);

function renderBuilder(revising?: QuoteView, forRequest: QuoteRequestDetail = request) {
  return renderInApp(<QuoteBuilder request={forRequest} revising={revising} onDone={() => {}} />);
}

const preview = () => screen.getByRole('region', { name: 'Quote preview' });
const section = (name: string) => screen.getByRole('region', { name });

async function addMaterial(
  user: ReturnType<typeof userEvent.setup>,
  line: { name: string; price: string; quantity: string; optional?: boolean; untaxed?: boolean },
) {
  await user.click(screen.getByRole('button', { name: 'Add Material' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add Material' });
  await user.type(within(dialog).getByLabelText(/^Name/), line.name);
  await user.clear(within(dialog).getByLabelText(/^Unit Price/));
  await user.type(within(dialog).getByLabelText(/^Unit Price/), line.price);
  await user.clear(within(dialog).getByLabelText(/^Quantity/));
  await user.type(within(dialog).getByLabelText(/^Quantity/), line.quantity);
  if (line.optional) await user.click(within(dialog).getByLabelText(/^Optional/));
  if (line.untaxed) await user.click(within(dialog).getByLabelText('Charge sales tax on this line'));
  await user.click(within(dialog).getByRole('button', { name: 'Add' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Material' })).toBeNull());
}

describe('the quote builder: lines on react-hook-form, checked by the API schema', () => {
  it('adds lines and prices them in cents: 3 × $19.99 = $59.97, tax 8% on the taxed part', async () => {
    const user = renderBuilder();
    await addMaterial(user, { name: 'Deck boards', price: '19.99', quantity: '3' });
    expect(section('Materials').textContent).toContain('Deck boards — 3 × $19.99 = $59.97');
    // 59.97 × 8% = 4.7976: $4.80; total $64.77.
    expect(preview().textContent).toContain('Tax 8% on $59.97');
    expect(preview().textContent).toContain('$4.80');
    expect(preview().textContent).toContain('$64.77');

    // Labor is not taxed by default: the tax stays on the materials.
    await user.click(screen.getByRole('button', { name: 'Add Labor' }));
    const labor = await screen.findByRole('dialog', { name: 'Add Labor' });
    await user.type(within(labor).getByLabelText('Description'), 'Rehang the gate');
    await user.clear(within(labor).getByLabelText(/^Hourly Rate/));
    await user.type(within(labor).getByLabelText(/^Hourly Rate/), '65');
    await user.clear(within(labor).getByLabelText(/^Hours/));
    await user.type(within(labor).getByLabelText(/^Hours/), '1.5');
    await user.click(within(labor).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Labor' })).toBeNull());
    expect(section('Labor').textContent).toContain('Rehang the gate — 1.5 h × $65.00/h = $97.50');
    // $59.97 + $97.50 = $157.47; tax $4.80 on $59.97; total $162.27.
    expect(preview().textContent).toContain('$157.47');
    expect(preview().textContent).toContain('Tax 8% on $59.97');
    expect(preview().textContent).toContain('$162.27');
  });

  it('leaves an optional line out of the total, and an untaxed one out of the tax', async () => {
    const user = renderBuilder();
    await addMaterial(user, { name: 'Hinges', price: '10', quantity: '2' });
    await addMaterial(user, { name: 'Gate paint', price: '40', quantity: '1', optional: true });
    await addMaterial(user, { name: 'Permit', price: '25', quantity: '1', untaxed: true });
    expect(section('Materials').textContent).toContain('Gate paint (optional) — 1 × $40.00 = $40.00');
    expect(section('Materials').textContent).toContain('Permit (not taxed) — 1 × $25.00 = $25.00');
    // $20 + $25 counted ($45.00); tax 8% on $20.00 = $1.60; total $46.60.
    expect(preview().textContent).toContain('$45.00');
    expect(preview().textContent).toContain('Tax 8% on $20.00');
    expect(preview().textContent).toContain('$46.60');
  });

  it('edits and removes a line, and the totals follow', async () => {
    const user = renderBuilder();
    await addMaterial(user, { name: 'Deck boards', price: '19.99', quantity: '3' });
    await addMaterial(user, { name: 'Mistake', price: '1', quantity: '1' });
    expect(preview().textContent).toContain('$60.97');
    await user.click(screen.getByRole('button', { name: 'Delete material Mistake' }));
    expect(section('Materials').textContent).not.toContain('Mistake');
    expect(preview().textContent).toContain('$59.97');

    await user.click(screen.getByRole('button', { name: 'Edit material Deck boards' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Material' });
    expect((within(dialog).getByLabelText(/^Quantity/) as HTMLInputElement).value).toBe('3');
    await user.clear(within(dialog).getByLabelText(/^Quantity/));
    await user.type(within(dialog).getByLabelText(/^Quantity/), '4');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Material' })).toBeNull());
    expect(section('Materials').textContent).toContain('Deck boards — 4 × $19.99 = $79.96');
    expect(screen.getAllByRole('button', { name: /^Delete material/ })).toHaveLength(1);
  });

  it("shows the schema's messages: a line's own, then the quote's", async () => {
    const user = renderBuilder();
    await user.click(screen.getByRole('button', { name: 'Send Quote' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Add at least one material or labor line');

    await user.click(screen.getByRole('button', { name: 'Add Material' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Material' });
    // The price field keeps cents: a third decimal typed is not taken.
    await user.clear(within(dialog).getByLabelText(/^Unit Price/));
    await user.type(within(dialog).getByLabelText(/^Unit Price/), '12.345');
    expect((within(dialog).getByLabelText(/^Unit Price/) as HTMLInputElement).value).toBe('$12.34');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    // A new line's quantity starts at 1 (issue 28.10); emptied, it is asked for.
    expect((within(dialog).getByLabelText(/^Quantity/) as HTMLInputElement).value).toBe('1');
    await user.clear(within(dialog).getByLabelText(/^Quantity/));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Quantity must be a number')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/^Name/), 'Faucet');
    await user.clear(within(dialog).getByLabelText(/^Quantity/));
    await user.type(within(dialog).getByLabelText(/^Quantity/), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Material' })).toBeNull());
    // A line answers the quote's message.
    expect(screen.queryByText('Add at least one material or labor line')).toBeNull();
    expect(section('Materials').textContent).toContain('Faucet — 1 × $12.34 = $12.34');

    await user.clear(screen.getByLabelText(/^Client name/));
    await user.click(screen.getByRole('button', { name: 'Send Quote' }));
    expect(await screen.findByText('Client name is required')).toBeTruthy();
  });

  it('keeps the work in this browser and brings it back', async () => {
    saveDraft(request._id, {
      clientName: 'Riley C.',
      projectName: 'Side gate',
      materials: [{ name: 'Hinges', unitPrice: 19.99, quantity: 3, optional: false }],
      labor: [],
      validUntil: '2026-12-31',
      deposit: { kind: 'percent', value: 10 },
    });
    const user = renderBuilder();
    expect((screen.getByLabelText(/^Client name/) as HTMLInputElement).value).toBe('Riley C.');
    expect((screen.getByLabelText(/^Project name/) as HTMLInputElement).value).toBe('Side gate');
    expect(section('Materials').textContent).toContain('Hinges — 3 × $19.99 = $59.97');
    expect(preview().textContent).toContain('$64.77');
    // 10% of $59.97 taxed (+8%): $6.00 + $0.48.
    expect(screen.getByText('$6.48 due when the client accepts')).toBeTruthy();
    // The number stays through "No deposit" and back.
    await user.click(screen.getByRole('combobox', { name: 'Deposit on acceptance' }));
    await user.click(await screen.findByRole('option', { name: 'No deposit' }));
    expect(screen.queryByLabelText('Deposit (%)')).toBeNull();
    await user.click(screen.getByRole('combobox', { name: 'Deposit on acceptance' }));
    await user.click(await screen.findByRole('option', { name: 'Fixed amount' }));
    expect((screen.getByLabelText('Deposit ($)') as HTMLInputElement).value).toBe('$10');
    await user.click(screen.getByRole('combobox', { name: 'Deposit on acceptance' }));
    await user.click(await screen.findByRole('option', { name: 'Percent of the total' }));
    expect((screen.getByLabelText('Deposit (%)') as HTMLInputElement).value).toBe('10%');

    await addMaterial(user, { name: 'Latch', price: '5', quantity: '1' });
    await waitFor(() => expect(loadDraft(request._id)?.materials.map((m) => m.name)).toEqual(['Hinges', 'Latch']));
    expect(loadDraft(request._id)).toMatchObject({ clientName: 'Riley C.', deposit: { kind: 'percent', value: 10 } });
    await user.click(screen.getByRole('button', { name: 'Delete material Hinges' }));
    await user.click(screen.getByRole('button', { name: 'Delete material Latch' }));
    // No lines: nothing is kept.
    await waitFor(() => expect(loadDraft(request._id)).toBeUndefined());
  });

  it('sends the body the schema made of the form, and forgets the kept work', async () => {
    saveDraft(request._id, {
      clientName: '  Riley C. ',
      projectName: 'Side gate',
      materials: [{ name: 'Hinges', unitPrice: 19.99, quantity: 3, optional: false, taxable: true }],
      labor: [{ description: '', hourlyRate: 65, hours: 1.5, flat: false, optional: true, taxable: false }],
      validUntil: '2026-12-31',
      deposit: null,
    });
    const user = renderBuilder();
    // A deposit asked without its amount is refused by the deposit's own rule.
    await user.click(screen.getByRole('combobox', { name: 'Deposit on acceptance' }));
    await user.click(await screen.findByRole('option', { name: 'Fixed amount' }));
    await user.click(screen.getByRole('button', { name: 'Send Quote' }));
    expect(await screen.findByText('The deposit must be a number')).toBeTruthy();
    expect(server).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Deposit ($)'), '50');
    expect(screen.getByText('$50.00 due when the client accepts')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send Quote' }));
    await waitFor(() => expect(server).toHaveBeenCalledTimes(2));
    expect(server.mock.calls.map(([url]) => url)).toEqual(['/api/quotes/createNew', '/api/quotes/sendQuote']);
    expect(bodyOf(0)).toEqual({
      quoteRequestId: request._id,
      clientName: 'Riley C.',
      projectName: 'Side gate',
      materials: [{ name: 'Hinges', unitPrice: 19.99, quantity: 3, optional: false, taxable: true }],
      labor: [{ description: '', hourlyRate: 65, hours: 1.5, flat: false, optional: true, taxable: false }],
      validUntil: '2026-12-31',
      deposit: { kind: 'amount', value: 50 },
      notes: '',
      internalNotes: '',
      poNumber: '',
    });
    expect(bodyOf(1)).toMatchObject({ userEmail: 'riley@home.test', quote: { quoteId: 'QT12345678' } });
    expect(String(bodyOf(1).quoteHTML)).toContain('Hinges');
    await waitFor(() => expect(loadDraft(request._id)).toBeUndefined());
    expect(preview().textContent).toContain('QT12345678');
  });

  it("shows a commercial client's company, billing address and the property in the live preview (issue 28.5)", () => {
    renderBuilder(undefined, {
      ...request,
      companyName: 'Acme Storage LLC',
      billingAddress: 'PO Box 77, Sacramento, CA 95812',
    });
    const text = preview().textContent;
    expect(text).toContain('Company: Acme Storage LLC');
    expect(text).toContain('Billing address: PO Box 77, Sacramento, CA 95812');
    expect(text).toContain('Service address: 915 L St, Sacramento, CA 95814');
  });

  it('revises a sent quote from its lines, kept apart from the first version, and sends it as a revision', async () => {
    const sentQuote: QuoteView = {
      ...priceQuote(
        [{ name: 'Hinges', unitPrice: 19.99, quantity: 3, taxable: true }],
        [{ description: 'Rehang', hourlyRate: 65, hours: 2, taxable: false }],
        800,
      ),
      _id: 'q1',
      quoteId: 'QT12345678',
      quoteRequestId: request._id,
      clientName: 'Riley Client',
      projectName: 'Side gate',
      status: 'Requested More Info',
      quoteDate: '2026-11-20',
      clientMessage: 'Could the paint be optional?',
      notes: '',
      internalNotes: '',
      poNumber: '',
      companyName: '',
      billingAddress: '',
      serviceAddress: '',
      version: 1,
      current: true,
      validUntil: '2026-12-20',
      expired: false,
      openedAt: null,
      answeredAt: null,
      acceptedName: null,
      acceptedIp: null,
      deposit: { kind: 'percent', value: 25, due: 48.19 },
    };
    const user = renderBuilder(sentQuote);
    expect(screen.getByRole('heading', { name: 'Revise Quote QT12345678' })).toBeTruthy();
    expect(section('Materials').textContent).toContain('Hinges — 3 × $19.99 = $59.97');
    expect(section('Labor').textContent).toContain('Rehang — 2 h × $65.00/h = $130.00');
    expect((screen.getByLabelText('Deposit (%)') as HTMLInputElement).value).toBe('25%');
    await addMaterial(user, { name: 'Gate paint', price: '40', quantity: '1', optional: true });
    await waitFor(() => expect(loadDraft(`${request._id}:v2`)?.materials).toHaveLength(2));
    expect(loadDraft(request._id)).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Send Revised Quote' }));
    await waitFor(() => expect(server).toHaveBeenCalledTimes(2));
    expect(server.mock.calls.map(([url]) => url)).toEqual(['/api/quotes/createNew', '/api/quotes/revise']);
    expect(bodyOf(1)).toMatchObject({
      materials: [{ name: 'Hinges' }, { name: 'Gate paint', optional: true }],
      deposit: { kind: 'percent', value: 25 },
      quote: { quoteId: 'QT12345678' },
    });
    await waitFor(() => expect(loadDraft(`${request._id}:v2`)).toBeUndefined());
  });
});
