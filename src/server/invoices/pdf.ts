import { billToLines, billToText } from '#shared/bill-to';
import { formatLongDate } from '#shared/dates';
import { HOW_TO_PAY_HEADING, howToPay } from '#shared/how-to-pay';
import { formatDollars, formatRowAmount, invoiceRows } from '#shared/money';
import type { InvoiceView } from '#shared/schemas/invoices';
import type { BusinessSettings } from '../lib/business';
import { writeText } from '../lib/pdf-fonts';
import { brandedPdf, MUTED, pdfTable } from '../lib/pdf-layout';

/** The invoice as a PDF, on the same page as the quote: lines, totals, any deposit credited, payments, balance. */
export function renderInvoicePdf(invoice: InvoiceView, business: BusinessSettings, logo?: Buffer): Promise<Buffer> {
  const title = `Invoice ${invoice.number ?? '(draft)'}`;
  const { doc, done, left, width } = brandedPdf(business, { Title: title, Subject: `For ${invoice.clientName}` });
  const text = (value: string, options: { bold?: boolean } = {}) =>
    writeText(doc, value, { x: left, y: doc.y, width, ...options });

  if (logo) doc.image(logo, left + width - 160, 105, { fit: [160, 60], align: 'right' });
  writeText(doc.fontSize(18), invoice.kind === 'deposit' ? 'Deposit invoice' : 'Invoice', {
    x: left,
    y: 115,
    bold: true,
  });
  doc.fontSize(11).fillColor(MUTED);
  text(`Invoice No. ${invoice.number ?? 'draft'}`);
  if (invoice.poNumber) text(`PO No.: ${invoice.poNumber}`);
  if (invoice.issueDate) text(`Date: ${formatLongDate(invoice.issueDate)}`);
  if (invoice.dueDate) text(`Due: ${formatLongDate(invoice.dueDate)}`);
  if (invoice.status === 'Void') text(`VOID: ${invoice.voidReason ?? ''}`, { bold: true });
  doc.moveDown(0.5).fillColor('#000000');
  const [first, ...rest] = billToText(invoice);
  text(`Bill to: ${first}`);
  for (const line of rest) text(line);
  const { service } = billToLines(invoice);
  if (service) text(`Service address: ${service}`);
  doc.moveDown();

  pdfTable(
    doc,
    { left, width },
    'Work and materials',
    ['Description', 'Quantity', 'Unit Price', 'Amount'],
    invoice.lines.map((l) => [l.description, String(l.quantity), formatDollars(l.unitPrice), formatDollars(l.amount)]),
    [0.46, 0.16, 0.18, 0.2],
  );

  for (const row of invoiceRows(invoice)) {
    const [label, value, bold] = [row.label, formatRowAmount(row.amount), row.emphasis];
    const y = doc.y;
    doc.fontSize(bold ? 13 : 11).fillColor('#000000');
    writeText(doc, label, { x: left + width * 0.3, y, width: width * 0.45, align: 'right', bold });
    writeText(doc, value, { x: left + width * 0.75, y, width: width * 0.25, align: 'right', bold });
    doc.moveDown(0.2);
  }
  if (invoice.notes) {
    doc.moveDown();
    text(invoice.notes);
  }
  const ways = howToPay(business, invoice);
  if (ways.length > 0) {
    doc.moveDown().fontSize(12).fillColor('#000000');
    text(HOW_TO_PAY_HEADING, { bold: true });
    doc.fontSize(10).moveDown(0.2);
    for (const way of ways) {
      text(way.label, { bold: true });
      text(way.text);
      doc.moveDown(0.3);
    }
  }
  doc.moveDown(2).fontSize(9).fillColor(MUTED);
  text(`Questions about this invoice? Call ${business.phone} or write to ${business.email}.`);
  doc.end();
  return done;
}
