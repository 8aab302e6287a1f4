import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { create as createFont, type Font } from 'fontkit';
import { describe, expect, it } from 'vitest';
import { fontRuns, REMEMBERED_CHARACTERS, rememberedCharacters, sfntFromWoff } from '../../src/server/lib/pdf-fonts';

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

  it('draws each character from a file that has it, regular and bold apart, the same every time it is asked', () => {
    const text = 'Dana Whitfield 王小明 Ünïcødé Кирилл 🔧 done';
    const regular = fontRuns(text);
    const bold = fontRuns(text, true);
    expect(regular.map((r) => r.text).join('')).toBe(text);
    expect(bold.map((r) => r.text).join('')).toBe(text);
    // Latin, Chinese and the emoji each from their own family; bold from the bold files where there are any.
    const family = (file: string) => /noto-(sans-sc|emoji|sans)\b/.exec(file)?.[1];
    const familyOf = (char: string) => family(regular.find((r) => r.text.includes(char))!.file);
    expect([familyOf('D'), familyOf('王'), familyOf('Ü'), familyOf('К'), familyOf('🔧')]).toEqual([
      'sans',
      'sans-sc',
      'sans',
      'sans',
      'emoji',
    ]);
    expect(regular[0]!.file).toMatch(/-400-normal\.woff$/);
    expect(bold[0]!.file).toMatch(/-700-normal\.woff$/);
    for (const run of [...regular, ...bold]) {
      const font = createFont(sfntFromWoff(fs.readFileSync(run.file))) as Font;
      for (const char of run.text)
        if (char.trim()) expect(font.hasGlyphForCodePoint(char.codePointAt(0)!), char).toBe(true);
    }
    // Asked again (each answer now remembered), the runs are the same.
    expect(fontRuns(text)).toEqual(regular);
    expect(fontRuns(text, true)).toEqual(bold);
  });

  it('remembers a bounded number of characters: a text of rare ones does not grow it without end', () => {
    const before = fontRuns('Invoice for 王小明');
    // 5,000 different characters from the CJK block, more than are remembered.
    let text = '';
    for (let c = 0x4e00; text.length < 5000; c++) text += String.fromCodePoint(c);
    fontRuns(text);
    expect(rememberedCharacters()).toBeLessThanOrEqual(REMEMBERED_CHARACTERS);
    expect(fontRuns('Invoice for 王小明')).toEqual(before);
  }, 60_000);
});
