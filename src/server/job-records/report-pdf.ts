import { formatLongDate, wallTimeIn } from '#shared/dates';
import { formatMinutes, reportedWork, type JobRecordView } from '#shared/schemas/job-records';
import { jobNumberOf } from '#shared/schemas/jobs';
import type { BusinessSettings } from '../lib/business';
import { writeText } from '../lib/pdf-fonts';
import { BRAND, brandedPdf, MUTED, pdfTable } from '../lib/pdf-layout';
import type { JobRow } from '../jobs';

export interface ReportInput {
  job: JobRow;
  record: JobRecordView;
  completedAt: Date;
  /** The photos as JPEG or PNG bytes, shrunk for print (`reportPhotos`). */
  photos: { stage: 'before' | 'after'; data: Buffer }[];
  /** Photos left out to keep the file small enough to e-mail. */
  morePhotos: number;
  signature: { png: Buffer; name: string; signedAt: Date } | null;
}

/**
 * The job report: the work done (checklist), time per worker, materials used beyond the quote (no
 * prices: the invoice carries those), before and after photos, and the client's signature. E-mailed
 * to the client and the owner when the job is completed. The crew's notes are for the office: they are
 * never printed here (the owner's e-mail and the job page carry them).
 */
export function renderJobReport(input: ReportInput, business: BusinessSettings, logo?: Buffer): Promise<Buffer> {
  const { job, record, completedAt } = input;
  const number = jobNumberOf(job.id);
  const { doc, done, left, width } = brandedPdf(business, {
    Title: `Job report ${number}`,
    Subject: `Work at ${job.street}, ${job.city} for ${job.contactName}`,
  });
  const when = (at: Date) => {
    const wall = wallTimeIn(business.timeZone, at);
    return `${formatLongDate(wall.date)} at ${wall.time}`;
  };
  const text = (value: string, options: { bold?: boolean } = {}) =>
    writeText(doc, value, { x: left, y: doc.y, width, ...options });
  const heading = (title: string) => {
    if (doc.y > doc.page.height - 140) doc.addPage();
    doc.moveDown(0.5);
    writeText(doc.fontSize(13).fillColor(BRAND), title, { x: left, y: doc.y, width, bold: true });
    doc.moveDown(0.3).fontSize(11).fillColor('#000000');
  };

  if (logo) doc.image(logo, left + width - 160, 105, { fit: [160, 60], align: 'right' });
  writeText(doc.fontSize(18), 'Job report', { x: left, y: 115, bold: true });
  doc.fontSize(11).fillColor(MUTED);
  text(`Job No. ${number}`);
  text(`Completed: ${when(completedAt)}`);
  doc.moveDown(0.5).fillColor('#000000');
  text(`Client: ${job.contactName}`);
  text(`Address: ${job.street}, ${job.city}, ${job.state} ${job.zip}`);
  doc.moveDown();

  const frame = { left, width };
  pdfTable(
    doc,
    frame,
    'Work done',
    ['Item', 'Done'],
    reportedWork(record.checklist).map((c) => [
      c.text,
      `Yes${c.doneBy ? `, ${c.doneBy}` : ''}, ${formatLongDate(wallTimeIn(business.timeZone, new Date(c.doneAt ?? completedAt)).date)}`,
    ]),
    [0.6, 0.4],
  );
  pdfTable(
    doc,
    frame,
    'Time',
    ['Worker', 'Time on the job'],
    record.timeTotals.map((t) => [t.worker.fullName, formatMinutes(t.minutes)]),
    [0.6, 0.4],
  );
  pdfTable(
    doc,
    frame,
    'Materials used beyond the quote',
    ['Material', 'Quantity'],
    record.materials.map((m) => [m.name, String(m.quantity)]),
    [0.7, 0.3],
  );

  if (record.clientNote.trim()) {
    heading('A note from the crew');
    text(record.clientNote.trim());
  }

  for (const stage of ['before', 'after'] as const) {
    const photos = input.photos.filter((p) => p.stage === stage);
    if (photos.length === 0) continue;
    heading(stage === 'before' ? 'Photos before' : 'Photos after');
    const cell = (width - 12) / 2;
    const cellHeight = 190;
    let column = 0;
    for (const photo of photos) {
      if (column === 0 && doc.y + cellHeight > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const x = left + column * (cell + 12);
      doc.image(photo.data, x, doc.y, { fit: [cell, cellHeight], align: 'center' });
      column = (column + 1) % 2;
      if (column === 0) doc.y += cellHeight + 10;
    }
    if (column === 1) doc.y += cellHeight + 10;
    doc.fillColor('#000000').fontSize(11);
  }
  if (input.morePhotos > 0) {
    doc.moveDown(0.5).fillColor(MUTED);
    text(
      `${input.morePhotos} more ${input.morePhotos === 1 ? 'photo was' : 'photos were'} taken on the job and kept with it, left out to keep this file small enough to e-mail: ask us for them at ${business.email} or ${business.phone}.`,
    );
    doc.fillColor('#000000');
  }

  heading('Sign-off');
  if (input.signature) {
    if (doc.y + 120 > doc.page.height - doc.page.margins.bottom) doc.addPage();
    doc.image(input.signature.png, left, doc.y, { fit: [240, 100] });
    doc.y += 106;
    text(`Signed by ${input.signature.name} on ${when(input.signature.signedAt)}`);
  } else {
    text('The client did not sign on site.');
  }
  doc.moveDown(2).fontSize(9).fillColor(MUTED);
  text(`Questions about this work? Call ${business.phone} or write to ${business.email}.`);
  doc.end();
  return done;
}
