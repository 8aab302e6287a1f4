/**
 * Builds an e-mail's HTML and plain-text bodies from the same blocks, so the two always say the
 * same thing. Every string is treated as text: whatever a visitor typed is escaped in the HTML.
 */

import type { Business } from '../lib/business';
import { escapeHtml } from '../lib/html';

/** Where the relay puts the link to a client's own page (relay.ts `withClientPage`); an HTML comment until then. */
export const CLIENT_PAGE_MARK = '<!--client-page-->';

export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'emphasis'; label: string; value: string }
  | { kind: 'details'; rows: [label: string, value: string][] }
  /** Priced lines and totals: the name (and its quantity × price) wraps, the amount stays on one line. */
  | { kind: 'lines'; rows: PricedRow[] }
  | { kind: 'button'; label: string; href: string }
  | { kind: 'preformatted'; text: string };

export interface PricedRow {
  label: string;
  /** "2 × $34.99": how the amount was reached, under the name. */
  detail?: string;
  amount: string;
  /** The total: in bold. */
  strong?: boolean;
}

export interface ComposeInput {
  business: Business;
  heading: string;
  blocks: Block[];
}

const nl2br = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>');

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;line-height:1.5">${nl2br(block.text)}</p>`;
    case 'emphasis':
      return `<p style="margin:0 0 16px;padding:12px 16px;background:#fff1e6;border-radius:8px">${escapeHtml(block.label)} <strong style="font-size:18px">${escapeHtml(block.value)}</strong></p>`;
    case 'details':
      return `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px;width:100%">${block.rows
        .map(
          ([label, value]) =>
            `<tr><th style="text-align:left;vertical-align:top;padding:6px 12px 6px 0;color:#555;white-space:nowrap">${escapeHtml(label)}</th><td style="padding:6px 0">${nl2br(value)}</td></tr>`,
        )
        .join('')}</table>`;
    case 'lines':
      return `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px;width:100%">${block.rows
        .map((row) => {
          const weight = row.strong ? ';font-weight:bold' : '';
          const detail = row.detail
            ? `<br><span style="color:#555;font-size:14px">${escapeHtml(row.detail)}</span>`
            : '';
          return `<tr><td style="vertical-align:top;padding:6px 12px 6px 0;border-top:1px solid #e3e8ef;overflow-wrap:anywhere;word-break:break-word${weight}">${escapeHtml(row.label)}${detail}</td><td style="vertical-align:top;padding:6px 0;border-top:1px solid #e3e8ef;text-align:right;white-space:nowrap${weight}">${escapeHtml(row.amount)}</td></tr>`;
        })
        .join('')}</table>`;
    case 'button':
      return `<p style="margin:8px 0 20px"><a href="${escapeHtml(block.href)}" style="display:inline-block;background:#123f83;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${escapeHtml(block.label)}</a></p>`;
    case 'preformatted':
      return `<div style="margin:0 0 16px;padding:12px 16px;border-left:4px solid #123f83;background:#f5f7fa;line-height:1.5">${nl2br(block.text)}</div>`;
  }
}

/** Labels and values in two columns of plain text, the values lined up. */
function detailsText(rows: [label: string, value: string][]): string {
  const width = Math.max(...rows.map(([l]) => l.length));
  return rows
    .map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value.replace(/\n/g, `\n${' '.repeat(width + 2)}`)}`)
    .join('\n');
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'emphasis':
      return `${block.label} ${block.value}`;
    case 'details':
      return detailsText(block.rows);
    case 'lines':
      return detailsText(block.rows.map((r) => [r.label, r.detail ? `${r.detail} = ${r.amount}` : r.amount]));
    case 'button':
      return `${block.label}: ${block.href}`;
    case 'preformatted':
      return block.text
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n');
  }
}

export function composeEmail({ business, heading, blocks }: ComposeInput): { html: string; text: string } {
  const footer = `${business.name} · ${business.phone} · ${business.email}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(heading)}</title></head>
<body style="margin:0;background:#eef2f7;font-family:Arial,Helvetica,sans-serif;color:#1d2733">
<table role="presentation" width="100%" style="border-collapse:collapse"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:600px;border-collapse:collapse;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#0b3372;color:#ffffff;padding:18px 24px;font-size:20px;font-weight:bold">${escapeHtml(business.name)}</td></tr>
<tr><td style="padding:24px;overflow-wrap:anywhere;word-break:break-word">
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(heading)}</h1>
${blocks.map(blockHtml).join('\n')}
${CLIENT_PAGE_MARK}
</td></tr>
<tr><td style="padding:16px 24px;background:#f5f7fa;color:#555;font-size:13px">${escapeHtml(footer)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = `${heading}\n\n${blocks.map(blockText).join('\n\n')}\n\n--\n${footer}\n`;
  return { html, text };
}

/** Blocks to put into an e-mail already composed (the link to a client's page, at `CLIENT_PAGE_MARK`). */
export function composeBlocks(blocks: Block[]): { html: string; text: string } {
  return { html: blocks.map(blockHtml).join('\n'), text: blocks.map(blockText).join('\n\n') };
}
