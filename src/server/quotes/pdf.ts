import { quoteClientRows } from '#shared/bill-to';
import { formatLongDate } from '#shared/dates';
import { formatDollars, totalsRows } from '#shared/money';
import type { QuoteView } from '#shared/schemas/quotes';
import type { BusinessSettings } from '../lib/business';
import { writeText } from '../lib/pdf-fonts';
import { BRAND, brandedPdf, MUTED, pdfTable } from '../lib/pdf-layout';
import { acceptanceLine } from './emails';

/**
 * The quote as a one-page (or more) PDF, drawn from the stored quote (its lines, totals and tax
 * rate) with the business's current details and logo: what the client files away.
 */
export function renderQuotePdf(quote: QuoteView, business: BusinessSettings, logo?: Buffer): Promise<Buffer> {
  const { doc, done, left, width } = brandedPdf(business, {
    Title: `Quote ${quote.quoteId}`,
    Subject: `${quote.projectName} for ${quote.clientName}`,
  });

  if (logo) doc.image(logo, left + width - 160, 105, { fit: [160, 60], align: 'right' });
  writeText(doc.fontSize(18), 'Quote', { x: left, y: 115, bold: true });
  doc.fontSize(11).fillColor(MUTED);
  writeText(doc, `Quote No. ${quote.quoteId}${quote.version > 1 ? ` (version ${quote.version})` : ''}`);
  writeText(
    doc,
    `Date: ${new Date(quote.quoteDate).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: business.timeZone })}`,
  );
  writeText(doc, `Valid until: ${formatLongDate(quote.validUntil)}`);
  doc.moveDown(0.5).fillColor('#000000');
  for (const [label, value] of quoteClientRows(quote)) writeText(doc, `${label}: ${value}`);
  writeText(doc, `Project: ${quote.projectName}`);
  if (quote.poNumber) writeText(doc, `PO No.: ${quote.poNumber}`);
  doc.moveDown();

  const table = (title: string, headers: string[], rows: string[][], widths: number[]) =>
    pdfTable(doc, { left, width }, title, headers, rows, widths);

  // Once accepted, the chosen lines only; before, every line with the optional ones marked.
  const accepted = quote.status === 'Accepted';
  const shown = <L extends { included: boolean }>(lines: L[]) => lines.filter((l) => !accepted || l.included);
  const mark = (l: { optional: boolean }) => (l.optional && !accepted ? ' (optional)' : '');
  table(
    'Materials',
    ['Name', 'Unit Price', 'Quantity', 'Subtotal'],
    shown(quote.materials).map((m) => [
      `${m.name}${mark(m)}`,
      formatDollars(m.unitPrice),
      String(m.quantity),
      formatDollars(m.subtotal),
    ]),
    [0.46, 0.18, 0.16, 0.2],
  );
  table(
    'Labor',
    ['Description', 'Rate or Price', 'Hours', 'Total'],
    shown(quote.labor).map((l) => [
      `${l.description || 'Labor'}${mark(l)}`,
      l.flat ? 'Flat price' : `${formatDollars(l.hourlyRate)}/h`,
      l.flat ? '—' : String(l.hours),
      formatDollars(l.total),
    ]),
    [0.46, 0.18, 0.16, 0.2],
  );

  for (const { label, amount, emphasis: bold } of totalsRows(quote)) {
    const value = formatDollars(amount);
    const y = doc.y;
    doc.fontSize(bold ? 13 : 11).fillColor('#000000');
    writeText(doc, label, { x: left + width * 0.3, y, width: width * 0.45, align: 'right', bold });
    writeText(doc, value, { x: left + width * 0.75, y, width: width * 0.25, align: 'right', bold });
    doc.moveDown(0.2);
  }
  if (quote.deposit) {
    doc.moveDown(0.5).fontSize(10).fillColor('#000000');
    writeText(
      doc,
      `Deposit due on acceptance: ${formatDollars(quote.deposit.due)}${quote.deposit.kind === 'percent' ? ` (${quote.deposit.value}% of the total)` : ''}`,
      { x: left, y: doc.y, width, bold: true },
    );
  }
  if (quote.notes) {
    doc.moveDown(0.8);
    writeText(doc.fontSize(12).fillColor(BRAND), 'Notes', { x: left, y: doc.y, width, bold: true });
    doc.moveDown(0.2).fontSize(10).fillColor('#000000');
    writeText(doc, quote.notes, { x: left, y: doc.y, width });
  }
  if (!accepted && [...quote.materials, ...quote.labor].some((l) => l.optional)) {
    doc.moveDown(0.5).fontSize(9).fillColor(MUTED);
    writeText(doc, 'Optional lines are not in the total unless you choose them when you accept.', {
      x: left,
      y: doc.y,
      width,
    });
  }
  if (accepted && quote.acceptedName) {
    doc.moveDown(1.5);
    writeText(doc.fontSize(13).fillColor(BRAND), 'Acceptance', { x: left, y: doc.y, width, bold: true });
    doc.moveDown(0.3).fontSize(11).fillColor('#000000');
    writeText(doc, `Accepted by ${acceptanceLine(quote, business.timeZone)}`, { x: left, y: doc.y, width });
    writeText(doc, `Typed signature: ${quote.acceptedName}`, { x: left, y: doc.y, width });
    // The network address stays in the audit trail and on the office's screen, not on the client's document.
  }
  doc.moveDown(2).fontSize(9).fillColor(MUTED);
  writeText(doc, `Questions about this quote? Call ${business.phone} or write to ${business.email}.`, {
    x: left,
    y: doc.y,
    width,
  });
  doc.end();
  return done;
}
