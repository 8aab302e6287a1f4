import { formatDollars, laborDetail, type PricedQuote } from '#shared/money';
import { flatLineInput, laborLineInput, materialLineInput } from '#shared/schemas/quotes';
import type { LineKind } from './line-editor';

/** A line the client may choose: left out of the total until they tick it. */
const OPTIONAL_FIELD = {
  name: 'optional',
  label: 'Optional: the client chooses whether to include it',
  type: 'checkbox',
} as const;

/** Whether the line is charged sales tax (its default from Settings). */
const TAXABLE_FIELD = { name: 'taxable', label: 'Charge sales tax on this line', type: 'checkbox' } as const;

/** " (not taxed)" or " (taxed)" where the line departs from what the reader would assume. */
const taxNote = (taxable: boolean, kind: 'material' | 'labor') =>
  kind === 'material' ? (taxable ? '' : ' (not taxed)') : taxable ? ' (taxed)' : '';

export const MATERIAL_LINES: LineKind<typeof materialLineInput, PricedQuote['materials'][number]> = {
  name: 'materials',
  title: 'Materials',
  addLabel: 'Add Material',
  editLabel: 'Edit Material',
  empty: 'No materials added',
  schema: materialLineInput,
  fields: [
    { name: 'name', label: 'Name', type: 'text' },
    { name: 'unitPrice', label: 'Unit Price', type: 'number', prefix: '$', step: 1 },
    { name: 'quantity', label: 'Quantity', type: 'number', step: 1 },
    OPTIONAL_FIELD,
    TAXABLE_FIELD,
  ],
  blank: (taxable) => ({ name: '', unitPrice: 0, quantity: 1, optional: false, taxable }),
  describe: (m) => ({
    editLabel: `Edit material ${m.name}`,
    deleteLabel: `Delete material ${m.name}`,
    text: (
      <>
        {m.name}
        {m.optional ? ' (optional)' : ''}
        {taxNote(m.taxable, 'material')} — {m.quantity} × {formatDollars(m.unitPrice)} ={' '}
        <b>{formatDollars(m.subtotal)}</b>
      </>
    ),
  }),
};

export const LABOR_LINES: LineKind<typeof laborLineInput, PricedQuote['labor'][number]> = {
  name: 'labor',
  title: 'Labor',
  addLabel: 'Add Labor',
  editLabel: 'Edit Labor',
  empty: 'No labor added',
  schema: laborLineInput,
  fields: [
    { name: 'description', label: 'Description', type: 'text', optional: true, placeholder: 'e.g. Rehang the gate' },
    { name: 'hourlyRate', label: 'Hourly Rate', type: 'number', prefix: '$', step: 5 },
    { name: 'hours', label: 'Hours', type: 'number', step: 0.5 },
    OPTIONAL_FIELD,
    TAXABLE_FIELD,
  ],
  blank: (taxable) => ({ description: '', hourlyRate: 0, hours: 1, flat: false, optional: false, taxable }),
  describe: (l, i) => ({
    editLabel: `Edit labor line ${i + 1}`,
    deleteLabel: `Delete labor line ${i + 1}`,
    text: (
      <>
        {l.description ? `${l.description}${l.optional ? ' (optional)' : ''} — ` : l.optional ? '(optional) ' : ''}
        {laborDetail(l)} = <b>{formatDollars(l.total)}</b>
        {taxNote(l.taxable, 'labor')}
      </>
    ),
  }),
};

type FlatLine = { description: string; price: number; optional?: boolean | undefined; taxable?: boolean | undefined };

/**
 * A flat price for the work, kept in the form's labor lines (`flat`: the price as the rate, 1 hour) so
 * it is totalled as any labor line; its own dialog asks for a price, not hours (decision 032).
 */
export const FLAT_LINES: LineKind<typeof flatLineInput, PricedQuote['labor'][number]> = {
  name: 'labor',
  title: 'Labor',
  addLabel: 'Add Flat Price',
  editLabel: 'Edit Flat Price',
  empty: 'No labor added',
  schema: flatLineInput,
  fields: [
    { name: 'description', label: 'Description', type: 'text', placeholder: 'e.g. Install a ceiling fan' },
    { name: 'price', label: 'Price', type: 'number', prefix: '$', step: 5 },
    OPTIONAL_FIELD,
    TAXABLE_FIELD,
  ],
  blank: (taxable) => ({ description: '', price: 0, optional: false, taxable }),
  owns: (line) => (line as { flat?: boolean }).flat === true,
  toLine: (line) => {
    const { description, price, optional, taxable } = line as FlatLine;
    return { description, hourlyRate: price, hours: 1, flat: true, optional, taxable };
  },
  fromLine: (line) => {
    const { description, hourlyRate, optional, taxable } = line as {
      description?: string;
      hourlyRate: number;
    } & FlatLine;
    return { description: description ?? '', price: hourlyRate, optional, taxable };
  },
  describe: LABOR_LINES.describe,
};
