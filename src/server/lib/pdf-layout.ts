import PDFDocument from 'pdfkit';
import type { BusinessSettings } from './business';
import { writeText } from './pdf-fonts';

export const BRAND = '#0b3372';
export const MUTED = '#555555';

/** A Letter page with the business's band across the top; `done` resolves to the bytes after `end()`. */
export function brandedPdf(business: BusinessSettings, info: { Title: string; Subject: string }) {
  const doc = new PDFDocument({ size: 'LETTER', margin: 50, info: { ...info, Author: business.name } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  // The name, and under it where the business is; on the right how to reach it and its license.
  const address = business.address.trim();
  const addressHeight = address ? doc.fontSize(9).heightOfString(address, { width: width / 2 }) : 0;
  const band = Math.max(90, 58 + addressHeight + 16);
  doc.rect(0, 0, doc.page.width, band).fill(BRAND);
  writeText(doc.fillColor('#ffffff').fontSize(20), business.name, { x: left, y: 28, width: width / 2, bold: true });
  if (address) writeText(doc.fontSize(9), address, { x: left, y: 56, width: width / 2 });
  const license = business.licenseNumber.trim();
  writeText(
    doc.fontSize(10),
    [business.phone, business.email, license ? `License no. ${license}` : ''].join('\n').trim(),
    {
      x: left + width / 2,
      y: 26,
      width: width / 2,
      align: 'right',
    },
  );
  doc.fillColor('#000000');
  doc.y = band + 25;
  return { doc, done, left, width };
}

/** A titled table: a bold header row, then rows; the first column left-aligned when `firstLeft`. */
export function pdfTable(
  doc: PDFKit.PDFDocument,
  frame: { left: number; width: number },
  title: string,
  headers: string[],
  rows: string[][],
  widths: number[],
  firstLeft = true,
) {
  if (rows.length === 0) return;
  const { left, width } = frame;
  writeText(doc.fontSize(13).fillColor(BRAND), title, { x: left, bold: true });
  doc.moveDown(0.3);
  const drawRow = (cells: string[], bold: boolean) => {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 30) doc.addPage();
    const y = doc.y;
    let x = left;
    doc.fontSize(10).fillColor('#000000');
    let height = 0;
    cells.forEach((cell, i) => {
      const w = widths[i]! * width;
      writeText(doc, cell, { x: x + 4, y, width: w - 8, align: i === 0 && firstLeft ? 'left' : 'right', bold });
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
}
