import fs from 'node:fs';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import path from 'node:path';
import { create as createFont, type Font } from 'fontkit';

/**
 * Unicode text in PDFs. pdfkit's built-in Helvetica only knows Latin-1: a client named 王小明 or a
 * project called "Kitchen 🔧" came out as garbage. The fonts come from the Noto families on npm
 * (@fontsource), which are split into files by Unicode range; their CSS says which file covers
 * which code points, so a character is drawn from the first family whose file covers it:
 * Noto Sans (Latin, Greek, Cyrillic, Vietnamese…), then Noto Sans SC (Chinese, Japanese kana, many
 * symbols), then Noto Emoji (black-and-white emoji). A file is read the first time it is needed.
 */
const FAMILIES = ['@fontsource/noto-sans', '@fontsource/noto-sans-sc', '@fontsource/noto-emoji'] as const;

interface Face {
  file: string;
  ranges: [number, number][];
}

const require = createRequire(import.meta.url);
const facesByWeight = new Map<number, Face[]>();
const fileCache = new Map<string, Buffer>();

function parseRanges(value: string): [number, number][] {
  return value.split(',').map((part) => {
    const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(lo!, 16), parseInt(hi ?? lo!, 16)];
  });
}

/** Each family's faces for a weight (400 or 700; a family without bold falls back to 400), in order. */
function faces(weight: number): Face[] {
  let list = facesByWeight.get(weight);
  if (list) return list;
  list = [];
  for (const family of FAMILIES) {
    const dir = path.dirname(require.resolve(`${family}/package.json`));
    const cssFile = fs.existsSync(path.join(dir, `${weight}.css`)) ? `${weight}.css` : '400.css';
    const css = fs.readFileSync(path.join(dir, cssFile), 'utf8');
    for (const block of css.split('@font-face').slice(1)) {
      // The WOFF files, not WOFF2: fontkit cannot subset glyphs out of WOFF2 (a DataView range error).
      const src = /url\((\.\/files\/[^)]+\.woff)\)/.exec(block)?.[1];
      const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
      if (src && range) list.push({ file: path.join(dir, src), ranges: parseRanges(range) });
    }
  }
  facesByWeight.set(weight, list);
  return list;
}

const parsed = new Map<string, Font>();

/**
 * A WOFF 1.0 file as the plain TrueType/OpenType font it wraps (W3C WOFF 1.0, section 4): the same
 * tables, each inflated with zlib when stored compressed, behind an sfnt header.
 */
export function sfntFromWoff(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) return woff; // not 'wOFF': already an sfnt
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20;
    const [tag, offset, compLength, origLength, checksum] = [0, 4, 8, 12, 16].map((o) => woff.readUInt32BE(at + o)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const stored = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? zlib.inflateSync(stored) : stored;
    if (data.length !== origLength) throw new Error('A font table has the wrong length after inflating');
    return { tag, checksum, data };
  });
  const power = 2 ** Math.floor(Math.log2(numTables));
  const header = Buffer.alloc(12 + numTables * 16);
  header.writeUInt32BE(woff.readUInt32BE(4), 0); // flavor: the sfnt version
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(numTables * 16 - power * 16, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((t, i) => {
    const record = 12 + i * 16;
    header.writeUInt32BE(t.tag, record);
    header.writeUInt32BE(t.checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(t.data.length, record + 12);
    const padded = Buffer.alloc(Math.ceil(t.data.length / 4) * 4);
    t.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

/**
 * A font file parsed once for the process, from its tables inflated once (fontkit inflates a WOFF's
 * table every time it reads it: 60 ms of every PDF went there). pdfkit takes the parsed font as it is;
 * each document still makes its own subset of the glyphs it uses.
 */
function parsedFont(file: string): Font {
  let font = parsed.get(file);
  if (!font) {
    font = createFont(sfntFromWoff(fontFile(file))) as Font;
    parsed.set(file, font);
  }
  return font;
}

/** A file's unicode-range is a promise of the family, not of the file: ask the font itself. */
function hasGlyph(face: Face, codePoint: number): boolean {
  return parsedFont(face.file).hasGlyphForCodePoint(codePoint);
}

/**
 * Which face draws a character, found once per character and weight: the search walks every range of
 * every file of the three families (Noto Sans SC alone has about a hundred files), and done for each
 * character of each text it was nine tenths of drawing a PDF (a 200-line invoice took 4 s).
 */
const faceByCharacter = new Map<number, Face>();
/** Bounded: a text of rare characters (names typed by strangers reach PDFs) cannot grow it without end. */
export const REMEMBERED_CHARACTERS = 4096;

/** How many characters' faces are remembered now (never more than REMEMBERED_CHARACTERS). */
export const rememberedCharacters = () => faceByCharacter.size;

function faceFor(codePoint: number, weight: number): Face {
  const key = codePoint * 2 + (weight === 700 ? 1 : 0);
  let face = faceByCharacter.get(key);
  if (!face) {
    const list = faces(weight);
    const covering = list.filter((f) => f.ranges.some(([lo, hi]) => codePoint >= lo && codePoint <= hi));
    face = covering.find((f) => hasGlyph(f, codePoint)) ?? covering[0] ?? list[0]!;
    if (faceByCharacter.size >= REMEMBERED_CHARACTERS) faceByCharacter.clear();
    faceByCharacter.set(key, face);
  }
  return face;
}

/** Marks that join or modify the character before them (ZWJ, variation selectors, skin tones, accents) stay in its run. */
function joinsPrevious(codePoint: number): boolean {
  return (
    codePoint === 0x200d ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0x1f3fb && codePoint <= 0x1f3ff) ||
    (codePoint >= 0x0300 && codePoint <= 0x036f) ||
    (codePoint >= 0xe0020 && codePoint <= 0xe007f)
  );
}

export interface TextRun {
  /** The font file that draws this run, used as the font's name in the PDF too. */
  file: string;
  text: string;
}

/** Splits text into runs that one font file each can draw. */
export function fontRuns(text: string, bold = false): TextRun[] {
  const weight = bold ? 700 : 400;
  const runs: TextRun[] = [];
  for (const char of text) {
    const last = runs[runs.length - 1];
    const codePoint = char.codePointAt(0)!;
    const file = last && joinsPrevious(codePoint) ? last.file : faceFor(codePoint, weight).file;
    if (last && last.file === file) last.text += char;
    else runs.push({ file, text: char });
  }
  return runs;
}

export function fontFile(file: string): Buffer {
  let data = fileCache.get(file);
  if (!data) {
    data = fs.readFileSync(file);
    fileCache.set(file, data);
  }
  return data;
}

const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

/**
 * Writes text in the fonts that can draw it, like `doc.text(text, x, y, options)`: a run per font,
 * chained with pdfkit's `continued`, so wrapping and alignment work across runs.
 */
export function writeText(
  doc: PDFKit.PDFDocument,
  text: string,
  options: PDFKit.Mixins.TextOptions & { x?: number; y?: number; bold?: boolean } = {},
) {
  const { x, y, bold, ...textOptions } = options;
  const runs = fontRuns(text === '' ? ' ' : text, bold);
  let names = registered.get(doc);
  if (!names) registered.set(doc, (names = new Set()));
  runs.forEach((run, i) => {
    if (!names.has(run.file)) {
      doc.registerFont(run.file, parsedFont(run.file) as never);
      names.add(run.file);
    }
    doc.font(run.file);
    const runOptions = { ...textOptions, continued: i < runs.length - 1 };
    if (i === 0 && x !== undefined) doc.text(run.text, x, y, runOptions);
    else doc.text(run.text, runOptions);
  });
  return doc;
}
