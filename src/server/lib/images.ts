import os from 'node:os';
import pLimit from 'p-limit';
import sharp, { type Metadata } from 'sharp';
import { MAX_UPLOAD_BYTES } from '#shared/constants';
import { messages } from '#shared/messages';
import { badRequest } from '../lib/http-errors';

export interface ProcessedImage {
  mimeType: string;
  width: number;
  height: number;
  data: Buffer;
  thumbnail: Buffer;
}

const FORMATS = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' } as const;
/** Larger photos are scaled down: no screen needs more, and the database keeps less. */
const MAX_EDGE = 2560;
const THUMB_EDGE = 320;
/** No phone takes more; a header that claims more is a decompression bomb or a mistake. */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_SIDE = 12_000;
/**
 * An interlaced PNG or a progressive JPEG/WebP must be decoded whole before it can be shrunk; this
 * caps the memory that one such image may take (a 16-bit interlaced PNG costs 8 bytes a pixel).
 * A 20-megapixel progressive phone photo (60 MB) fits.
 */
export const MAX_WHOLE_DECODE_BYTES = 64 * 1024 * 1024;
/**
 * How many images are decoded at once in the whole process: half the cores, each image on one
 * libvips thread. Each also holds a thread of libuv's pool (four by default) for its whole run; the
 * rest wait their turn, so pages, sign-in hashing, static files and the database driver always
 * find a free core and a free thread, and memory stays bounded.
 */
export const IMAGE_CONCURRENCY = Math.max(1, Math.floor(os.availableParallelism() / 2));

// libvips' operation cache keeps decoded images around for reuse; uploads are never decoded twice.
sharp.cache(false);
sharp.concurrency(1);
const pool = pLimit(IMAGE_CONCURRENCY);

/** Images waiting for, or in, the pool: for the bench and the tests. */
export function imagePoolLoad() {
  return { active: pool.activeCount, waiting: pool.pendingCount };
}

function decodeDataUrl(dataUrl: string): Buffer {
  const comma = dataUrl.indexOf(',');
  return Buffer.from(dataUrl.slice(comma + 1), 'base64');
}

const BYTES_PER_SAMPLE: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

/**
 * Checks one photo's header without decoding it: its real format, and that its size is one a
 * phone makes. A 115 KB PNG can claim 59 million pixels; decoding it would take seconds of CPU.
 */
async function inspect(buffer: Buffer, label: string): Promise<keyof typeof FORMATS> {
  let meta: Metadata;
  try {
    meta = await sharp(buffer).metadata();
  } catch {
    throw badRequest(`${label} is not a JPEG, PNG, WebP or GIF picture`, 'INVALID_IMAGE');
  }
  if (!meta.format || !(meta.format in FORMATS) || !meta.width || !meta.height)
    throw badRequest(`${label} is not a JPEG, PNG, WebP or GIF picture`, 'INVALID_IMAGE');
  const { width, height } = meta;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw badRequest(
      `${label} is too large: ${width} × ${height} pixels (at most 40 megapixels and 12,000 pixels a side)`,
      'IMAGE_TOO_LARGE',
    );
  }
  // sharp reports an interlaced PNG as progressive too.
  const whole = meta.isProgressive === true;
  const decoded = width * height * (meta.channels ?? 4) * (BYTES_PER_SAMPLE[meta.depth ?? 'uchar'] ?? 1);
  if (whole && decoded > MAX_WHOLE_DECODE_BYTES) {
    throw badRequest(
      `${label} is too large to process: save it as an ordinary (not interlaced or progressive) JPEG or PNG, or smaller`,
      'IMAGE_TOO_LARGE',
    );
  }
  return meta.format as keyof typeof FORMATS;
}

/**
 * Decodes once, turns the photo upright and re-encodes it, which drops every piece of metadata
 * (phone photos carry the GPS position of the client's home), then makes the thumbnail from the
 * re-encoded copy rather than from the original.
 */
async function reencode(buffer: Buffer, format: keyof typeof FORMATS, index: number): Promise<ProcessedImage> {
  try {
    const resized = sharp(buffer, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: true })
      .rotate()
      .resize(MAX_EDGE, MAX_EDGE, { fit: 'inside', withoutEnlargement: true });
    // GIFs are kept as their first frame in PNG; the rest keep their format.
    const encoded =
      format === 'jpeg'
        ? resized.jpeg({ quality: 85, mozjpeg: true })
        : format === 'webp'
          ? resized.webp({ quality: 85 })
          : resized.png();
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    const thumbnail = await sharp(data)
      .resize(THUMB_EDGE, THUMB_EDGE, { fit: 'cover' })
      .webp({ quality: 70 })
      .toBuffer();
    return {
      mimeType: format === 'gif' ? 'image/png' : FORMATS[format],
      width: info.width,
      height: info.height,
      data,
      thumbnail,
    };
  } catch {
    throw badRequest(`images.${index}: image ${index + 1} is not a JPEG, PNG, WebP or GIF picture`, 'INVALID_IMAGE');
  }
}

/**
 * Checks each photo by its content (not its name or declared type), enforces the 3 MB total and
 * the size limits, and re-encodes them in the bounded pool.
 */
export async function processImages(dataUrls: string[]): Promise<ProcessedImage[]> {
  const buffers = dataUrls.map(decodeDataUrl);
  const total = buffers.reduce((sum, b) => sum + b.length, 0);
  if (total > MAX_UPLOAD_BYTES) throw badRequest(messages.filesTooLarge, 'FILES_TOO_LARGE');
  const formats: (keyof typeof FORMATS)[] = [];
  for (const [index, buffer] of buffers.entries())
    formats.push(await inspect(buffer, `images.${index}: image ${index + 1}`));
  const out: ProcessedImage[] = [];
  for (const [index, buffer] of buffers.entries()) out.push(await pool(() => reencode(buffer, formats[index]!, index)));
  return out;
}

/** A logo is shown at most this wide (page header, PDF), twice over for sharp screens. */
const LOGO_MAX_WIDTH = 800;
const LOGO_MAX_HEIGHT = 400;

/**
 * The business's logo: checked like a client's photo (content, header, size), then re-encoded as a
 * PNG (transparency kept, metadata dropped) no larger than it is ever shown.
 */
export async function processLogo(dataUrl: string): Promise<{ png: Buffer; width: number; height: number }> {
  const buffer = decodeDataUrl(dataUrl);
  if (buffer.length > MAX_UPLOAD_BYTES) throw badRequest(messages.filesTooLarge, 'FILES_TOO_LARGE');
  await inspect(buffer, 'image: the logo');
  return pool(async () => {
    try {
      const { data, info } = await sharp(buffer, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
        .rotate()
        .resize(LOGO_MAX_WIDTH, LOGO_MAX_HEIGHT, { fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer({ resolveWithObject: true });
      return { png: data, width: info.width, height: info.height };
    } catch {
      throw badRequest('image: the logo is not a JPEG, PNG, WebP or GIF picture', 'INVALID_IMAGE');
    }
  });
}

/** A signature drawn on a phone: at most this many pixels a side (a landscape phone at 3×). */
const SIGNATURE_MAX_WIDTH = 3000;
const SIGNATURE_MAX_HEIGHT = 2000;

/**
 * The client's signature as the phone drew it: a PNG by its content, no larger than a screen, re-encoded
 * (transparency kept) so only its pixels are stored.
 */
export async function processSignature(dataUrl: string, maxBytes: number): Promise<Buffer> {
  const buffer = decodeDataUrl(dataUrl);
  if (buffer.length > maxBytes) throw badRequest('image: the signature is too large', 'FILES_TOO_LARGE');
  let meta: Metadata;
  try {
    meta = await sharp(buffer).metadata();
  } catch {
    throw badRequest('image: the signature is not a PNG picture', 'INVALID_IMAGE');
  }
  if (meta.format !== 'png' || !meta.width || !meta.height)
    throw badRequest('image: the signature is not a PNG picture', 'INVALID_IMAGE');
  if (meta.width > SIGNATURE_MAX_WIDTH || meta.height > SIGNATURE_MAX_HEIGHT)
    throw badRequest('image: the signature is larger than a screen', 'IMAGE_TOO_LARGE');
  return pool(async () => {
    try {
      return await sharp(buffer, { failOn: 'error' }).png().toBuffer();
    } catch {
      throw badRequest('image: the signature is not a PNG picture', 'INVALID_IMAGE');
    }
  });
}

/** A photo in a printed report: no larger than this a side (a half-page cell at well over 300 dpi). */
export const PRINT_EDGE = 1600;

/**
 * A stored photo as a report prints it: a JPEG at most PRINT_EDGE a side (transparency on white), made in
 * the bounded pool, so a report of sixty phone photos stays a file one can e-mail (decision 022).
 */
export async function printablePhoto(data: Buffer): Promise<Buffer> {
  return pool(() =>
    sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true })
      .resize(PRINT_EDGE, PRINT_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      // Not mozjpeg: a few percent smaller, four times the time.
      .jpeg({ quality: 72 })
      .toBuffer(),
  );
}
