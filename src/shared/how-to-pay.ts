import type { InvoiceStatus } from './constants';
import type { HowClientsPay } from './schemas/settings';

/** One way to pay, as a label and its details (several lines where the owner wrote them). */
export interface HowToPayLine {
  label: string;
  text: string;
}

/** The heading every document prints above the lines. */
export const HOW_TO_PAY_HEADING = 'How to pay';

/**
 * "How to pay" for one invoice: the ways the owner set in Settings → "How clients pay", in the order a
 * client reads them, then the invoice number to quote; with none set, the business's phone to call.
 * Nothing when nothing is owed (paid or void). The one rule the invoice e-mails, the PDF, the client's
 * page and the deposit request print.
 */
export function howToPay(
  business: { name: string; phone: string; howClientsPay: HowClientsPay },
  invoice: { number: string | null; status: InvoiceStatus; balance: number },
): HowToPayLine[] {
  if (invoice.status === 'Void' || invoice.balance <= 0) return [];
  const pay = business.howClientsPay;
  const lines: HowToPayLine[] = [];
  if (pay.checkPayee || pay.checkAddress)
    lines.push({
      label: 'By check',
      text: [`Payable to ${pay.checkPayee || business.name}`, pay.checkAddress && `Mail to: ${pay.checkAddress}`]
        .filter(Boolean)
        .join('\n'),
    });
  if (pay.bankTransfer) lines.push({ label: 'Zelle or bank transfer', text: pay.bankTransfer });
  if (pay.cardByPhone) lines.push({ label: 'Card by phone', text: `Call ${pay.cardPhone || business.phone}` });
  if (lines.length === 0) return [{ label: 'To pay', text: `Call us at ${business.phone}` }];
  if (invoice.number) lines.push({ label: 'Reference', text: `Please include ${invoice.number} with your payment` });
  return lines;
}
