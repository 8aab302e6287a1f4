import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { create as createFont, type Font } from 'fontkit';
import { describe, expect, it } from 'vitest';
import { sfntFromWoff } from '../../src/server/lib/pdf-fonts';

const require = createRequire(import.meta.url);
const dir = path.join(path.dirname(require.resolve('@fontsource/noto-sans/package.json')), 'files');

describe('fonts for PDFs', () => {
  it('unwraps a WOFF into the same font, table for table, with nothing left to inflate', () => {
    const file = fs.readdirSync(dir).find((f) => /latin-400-normal\.woff$/.test(f))!;
    const woff = fs.readFileSync(path.join(dir, file));
    const sfnt = sfntFromWoff(woff);
    expect(sfnt.readUInt32BE(0)).not.toBe(0x774f4646);
    const a = createFont(woff) as Font;
    const b = createFont(sfnt) as Font;
    expect(b.postscriptName).toBe(a.postscriptName);
    expect(b.numGlyphs).toBe(a.numGlyphs);
    for (const text of ['Invoice INV-2026-0001', 'Ünïcødé façade — 1½"']) {
      expect(b.layout(text).glyphs.map((g) => g.id)).toEqual(a.layout(text).glyphs.map((g) => g.id));
      expect(b.layout(text).advanceWidth).toBe(a.layout(text).advanceWidth);
    }
    expect(sfntFromWoff(sfnt)).toBe(sfnt);
  });
});
