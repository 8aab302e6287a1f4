import PDFDocument from 'pdfkit';
import { formatMoney, toCents } from '../../shared/money';
import type { QuoteView } from '../../shared/schemas/quotes';
import type { Business } from '../mail/compose';

const BRAND = '#0b3372';
const MUTED = '#555555';
const money = (dollars: number) => formatMoney(toCents(dollars));

/** The quote as a one-page (or more) PDF, drawn from the stored quote: what the client files away. */
export function renderQuotePdf(quote: QuoteView, business: Business): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 50,
    info: { Title: `Quote ${quote.quoteId}`, Author: business.name, Subject: `${quote.projectName} for ${quote.clientName}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.rect(0, 0, doc.page.width, 90).fill(BRAND);
  doc
    .fillColor('#ffffff')
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(business.name, left, 28, { width: width / 2 });
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(`${business.phone}\n${business.email}`, left + width / 2, 30, { width: width / 2, align: 'right' });

  doc.fillColor('#000000').moveDown(3);
  doc.y = 115;
  doc.font('Helvetica-Bold').fontSize(18).text('Quote', left);
  doc.font('Helvetica').fontSize(11).fillColor(MUTED);
  doc.text(`Quote No. ${quote.quoteId}`);
  doc.text(
    `Date: ${new Date(quote.quoteDate).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'America/Los_Angeles' })}`,
  );
  doc.moveDown(0.5).fillColor('#000000');
  doc.text(`Client: ${quote.clientName}`);
  doc.text(`Project: ${quote.projectName}`);
  doc.moveDown();

  const table = (title: string, headers: string[], rows: string[][], widths: number[]) => {
    if (rows.length === 0) return;
    doc.font('Helvetica-Bold').fontSize(13).fillColor(BRAND).text(title, left);
    doc.moveDown(0.3);
    const drawRow = (cells: string[], bold: boolean) => {
      const y = doc.y;
      let x = left;
      doc
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(10)
        .fillColor('#000000');
      let height = 0;
      cells.forEach((cell, i) => {
        const w = widths[i]! * width;
        doc.text(cell, x + 4, y, { width: w - 8, align: i === 0 && headers.length === 4 ? 'left' : 'right' });
        height = Math.max(height, doc.y - y);
        x += w;
      });
      doc.y = y + height + 4;
      doc
        .moveTo(left, doc.y - 2)
        .lineTo(left + width, doc.y - 2)
        .strokeColor('#dddddd')
        .stroke();
    };
    drawRow(headers, true);
    rows.forEach((r) => drawRow(r, false));
    doc.moveDown();
  };

  table(
    'Materials',
    ['Name', 'Unit Price', 'Quantity', 'Subtotal'],
    quote.materials.map((m) => [m.name, money(m.unitPrice), String(m.quantity), money(m.subtotal)]),
    [0.46, 0.18, 0.16, 0.2],
  );
  table(
    'Labor',
    ['Hourly Rate', 'Hours', 'Total'],
    quote.labor.map((l) => [money(l.hourlyRate), String(l.hours), money(l.total)]),
    [0.4, 0.3, 0.3],
  );

  const totals: [string, string, boolean][] = [
    ['Subtotal', money(quote.totalCostBeforeTax), false],
    ['Tax (8%)', money(quote.taxCost), false],
    ['Total', money(quote.totalCostAfterTax), true],
  ];
  for (const [label, value, bold] of totals) {
    const y = doc.y;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 13 : 11)
      .fillColor('#000000');
    doc.text(label, left + width * 0.55, y, { width: width * 0.2, align: 'right' });
    doc.text(value, left + width * 0.75, y, { width: width * 0.25, align: 'right' });
    doc.moveDown(0.2);
  }
  doc
    .moveDown(2)
    .font('Helvetica')
    .fontSize(9)
    .fillColor(MUTED)
    .text(`Questions about this quote? Call ${business.phone} or write to ${business.email}.`, left, doc.y, { width });
  doc.end();
  return done;
}
