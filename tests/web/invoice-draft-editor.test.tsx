// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InvoiceView } from '#shared/schemas/invoices';
import { DraftEditor } from '../../src/web/features/invoices/components/draft-editor';
import { provideServerFetch } from '../../src/web/lib/api-client';
import { renderInApp, standInForFontLoading } from './support/render';

const draft: InvoiceView = {
  _id: 'inv1',
  number: null,
  jobId: null,
  kind: 'final',
  status: 'Draft',
  clientId: null,
  clientName: 'Riley Client',
  clientEmail: 'riley@home.test',
  address: '915 L St, Sacramento, CA 95814',
  billingAddress: '',
  companyName: '',
  poNumber: '',
  lines: [
    { description: 'Deck boards', quantity: 10, unitPrice: 12.5, amount: 125, taxable: true },
    { description: 'Haul-away', quantity: 1, unitPrice: 20, amount: 20, taxable: false },
  ],
  taxRateBasisPoints: 800,
  subtotal: 145,
  taxable: 125,
  tax: 10,
  total: 155,
  credit: 0,
  creditedNumber: null,
  creditedDeposit: null,
  paid: 0,
  balance: 155,
  dueDays: 14,
  issueDate: null,
  dueDate: null,
  notes: '',
  voidReason: null,
  payments: [],
  pdfUrl: null,
};

/** The API's answers, and what the editor sent it. */
const server = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

beforeEach(() => {
  standInForFontLoading();
  server.mockReset();
  server.mockImplementation(async (_url, init) => new Response(String(init.body ?? '{}'), { status: 200 }));
  provideServerFetch(server as unknown as typeof fetch);
});
afterEach(cleanup);

function renderEditor(invoice: InvoiceView = draft) {
  return renderInApp(<DraftEditor invoice={invoice} />);
}

const totals = () => screen.getByLabelText('Totals').textContent;
const row = (n: number) => screen.getByLabelText(`Line ${n} description`).closest('tr')!;
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

async function retype(user: ReturnType<typeof userEvent.setup>, label: string, text: string) {
  await user.clear(input(label));
  if (text) await user.type(input(label), text);
}

describe("the invoice draft editor: lines on react-hook-form, checked by the API's schema", () => {
  it('adds a line and prices it in cents: 3 × $19.99 = $59.97, taxed at 8% with the other taxed lines', async () => {
    const user = renderEditor();
    // $125.00 + $20.00; tax 8% on the taxed $125.00 = $10.00.
    expect(totals()).toContain('Tax 8% on $125.00');
    expect(totals()).toContain('$155.00');
    await user.click(screen.getByRole('button', { name: 'Add a line' }));
    await user.type(input('Line 3 description'), 'Stain');
    await retype(user, 'Line 3 quantity', '3');
    await retype(user, 'Line 3 unit price', '19.99');
    expect(within(row(3)).getByText('$59.97')).toBeTruthy();
    // $204.97; tax 8% on $184.97 = $14.80 (14.7976); total $219.77.
    expect(totals()).toContain('$204.97');
    expect(totals()).toContain('Tax 8% on $184.97');
    expect(totals()).toContain('$14.80');
    expect(totals()).toContain('$219.77');
    // Untaxed, the new line leaves the tax as it was.
    await user.click(input('Line 3 taxed'));
    expect(totals()).toContain('Tax 8% on $125.00');
    expect(totals()).toContain('$214.97');
  });

  it('removes a line, and the totals and numbering follow', async () => {
    const user = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Remove line 1' }));
    expect(input('Line 1 description').value).toBe('Haul-away');
    expect(screen.queryByLabelText('Line 2 description')).toBeNull();
    expect(totals()).toContain('Tax 8% on $0.00');
    expect(totals()).toContain('$20.00');
  });

  it('keeps cents in a price, and shows the schema messages where they belong', async () => {
    const user = renderEditor();
    await retype(user, 'Line 1 unit price', '12.345');
    expect(input('Line 1 unit price').value).toBe('$12.34');
    await retype(user, 'Line 1 description', '');
    await retype(user, 'Line 2 quantity', '');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await within(row(1)).findByText('Describe the line')).toBeTruthy();
    expect(within(row(2)).getByText('Quantity must be a number')).toBeTruthy();
    expect(server).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Remove line 1' }));
    await user.click(screen.getByRole('button', { name: 'Remove line 1' }));
    await user.click(screen.getByRole('button', { name: 'Send invoice' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An invoice needs at least one line');
    expect(screen.queryByRole('dialog', { name: 'Send this invoice?' })).toBeNull();
  });

  it('saves what the schema makes of the screen, once, and has nothing more to save after', async () => {
    const user = renderEditor();
    const save = screen.getByRole('button', { name: 'Save draft' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await retype(user, 'Line 1 quantity', '12');
    await user.type(input('Line 2 description'), '  ');
    await retype(user, 'Days to pay', '30');
    await user.type(input('PO number'), '  PO-77  ');
    expect(save.disabled).toBe(false);
    await user.click(save);
    await waitFor(() => expect(server).toHaveBeenCalledTimes(1));
    const [url, init] = server.mock.calls[0]!;
    expect([url, init.method]).toEqual(['/api/invoices/inv1', 'PUT']);
    expect(JSON.parse(String(init.body))).toEqual({
      lines: [
        { description: 'Deck boards', quantity: 12, unitPrice: 12.5, taxable: true },
        { description: 'Haul-away', quantity: 1, unitPrice: 20, taxable: false },
      ],
      dueDays: 30,
      notes: '',
      // The client's PO, trimmed by the schema (issue 28.5).
      poNumber: 'PO-77',
    });
    await waitFor(() => expect(save.disabled).toBe(true));
  });

  it("starts from the quote's PO number and keeps it at most 40 characters", async () => {
    const user = renderEditor({ ...draft, poNumber: 'PO-4471' });
    expect(input('PO number').value).toBe('PO-4471');
    await user.clear(input('PO number'));
    await user.type(input('PO number'), 'P'.repeat(45));
    expect(input('PO number').value).toBe('P'.repeat(40));
  });

  it('says, before sending, that a client without an e-mail gets nothing by e-mail (issue 28.4)', async () => {
    const user = renderEditor({ ...draft, clientEmail: '' });
    await user.click(screen.getByRole('button', { name: 'Send invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this invoice?' });
    expect(dialog.textContent).toContain('No e-mail on file: nothing is e-mailed to this client');
    expect(dialog.textContent).not.toContain('goes to');
  });
});
