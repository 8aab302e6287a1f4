import { describe, expect, it } from 'vitest';
import { INVOICE_STATUSES } from '#shared/constants';
import { howToPay } from '#shared/how-to-pay';
import { clientInvoiceStatusOf } from '#shared/schemas/invoices';
import { howClientsPay, noPaymentDetails, settingsInput } from '#shared/schemas/settings';

const business = { name: 'Sac Handyman Services', phone: '(916) 555-0142', howClientsPay: noPaymentDetails };
const owed = { number: 'INV-2026-0007', status: 'Sent' as const, balance: 120 };

describe('how to pay (one rule for the invoice e-mails, PDF, client page and deposit request)', () => {
  it('with nothing set, asks the client to call the business', () => {
    expect(howToPay(business, owed)).toEqual([{ label: 'To pay', text: 'Call us at (916) 555-0142' }]);
  });

  it('lists the ways set, in order, then the invoice number to quote', () => {
    const lines = howToPay(
      {
        ...business,
        howClientsPay: {
          checkPayee: 'Sac Handyman LLC',
          checkAddress: 'PO Box 12\nSacramento, CA 95814',
          bankTransfer: 'Zelle: pay@sachandyman.example',
          cardByPhone: true,
          cardPhone: '',
        },
      },
      owed,
    );
    expect(lines).toEqual([
      { label: 'By check', text: 'Payable to Sac Handyman LLC\nMail to: PO Box 12\nSacramento, CA 95814' },
      { label: 'Zelle or bank transfer', text: 'Zelle: pay@sachandyman.example' },
      { label: 'Card by phone', text: 'Call (916) 555-0142' },
      { label: 'Reference', text: 'Please include INV-2026-0007 with your payment' },
    ]);
  });

  it('names the business as payee when only an address is set, and a card phone of its own', () => {
    const lines = howToPay(
      {
        ...business,
        howClientsPay: { ...noPaymentDetails, checkAddress: '1 Main St', cardByPhone: true, cardPhone: '916-555-0100' },
      },
      owed,
    );
    expect(lines.map((l) => l.text)).toEqual([
      'Payable to Sac Handyman Services\nMail to: 1 Main St',
      'Call 916-555-0100',
      'Please include INV-2026-0007 with your payment',
    ]);
  });

  it('says nothing once nothing is owed: paid or void', () => {
    expect(howToPay(business, { ...owed, status: 'Paid', balance: 0 })).toEqual([]);
    expect(howToPay(business, { ...owed, status: 'Void' })).toEqual([]);
  });

  it('keeps the fields within their limits, and a card phone is a phone', () => {
    expect(howClientsPay.safeParse({ checkPayee: 'x'.repeat(101) }).error?.issues[0]?.message).toBe(
      'Payee for checks must be at most 100 characters',
    );
    expect(howClientsPay.safeParse({ bankTransfer: 'x'.repeat(501) }).success).toBe(false);
    expect(howClientsPay.safeParse({ cardPhone: 'call me' }).error?.issues[0]?.message).toMatch(/phone number/);
    expect(howClientsPay.parse({})).toEqual(noPaymentDetails);
    // Saved settings from before the section read as nothing set.
    expect(settingsInput.shape.howClientsPay.parse(undefined)).toEqual(noPaymentDetails);
  });
});

describe("the client's invoice status words", () => {
  it('reads Due, Partly paid or Paid; Overdue and Void stay', () => {
    expect(Object.fromEntries(INVOICE_STATUSES.map((s) => [s, clientInvoiceStatusOf(s)]))).toEqual({
      Draft: 'Due',
      Sent: 'Due',
      'Partially Paid': 'Partly paid',
      Paid: 'Paid',
      Overdue: 'Overdue',
      Void: 'Void',
    });
  });
});
