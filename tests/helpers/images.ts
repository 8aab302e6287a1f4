import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A real photo-like JPEG: a gradient, optionally carrying EXIF with a GPS position and a camera. */
export async function makeJpeg({ width = 640, height = 480, withGps = false, quality = 80 } = {}): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#3a6"/><stop offset="1" stop-color="#36c"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#fc3"/></svg>`;
  let image = sharp(Buffer.from(svg)).jpeg({ quality });
  if (withGps) {
    image = image.withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 15', Copyright: 'Client' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '38/1 34/1 54/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '121/1 29/1 38/1',
      },
    });
  }
  return image.toBuffer();
}

export async function makePng(width = 200, height = 150): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();
}

/** Random noise does not compress: a JPEG of about `bytes` size for size-limit tests. */
export async function makeLargeJpeg(minBytes: number): Promise<Buffer> {
  let side = 300;
  for (;;) {
    const raw = Buffer.alloc(side * side * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
    const jpeg = await sharp(raw, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 100 })
      .toBuffer();
    if (jpeg.length >= minBytes) return jpeg;
    side = Math.ceil(side * 1.1);
  }
}

export const dataUrl = (buffer: Buffer, mime = 'image/jpeg') => `data:${mime};base64,${buffer.toString('base64')}`;

function crc32(data: Buffer): number {
  let c = ~0;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A hostile PNG: tiny on the wire, huge once decoded (a "decompression bomb"). Every row is zeros,
 * which deflate shrinks about a thousandfold. `interlaced` with 16-bit RGBA makes a decoder hold
 * the whole image in memory at 8 bytes a pixel.
 */
export function makeCraftedPng({
  width,
  height,
  bitDepth = 8,
  colorType = 0,
  interlaced = false,
}: {
  width: number;
  height: number;
  bitDepth?: 8 | 16;
  colorType?: 0 | 2 | 6;
  interlaced?: boolean;
}): Buffer {
  const channels = colorType === 0 ? 1 : colorType === 2 ? 3 : 4;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  ihdr[12] = interlaced ? 1 : 0;
  // For an interlaced image the seven passes' rows add up to about the same bytes; zeros either way.
  const rowBytes = 1 + (width * channels * bitDepth) / 8;
  const total = rowBytes * height * (interlaced ? 1.2 : 1);
  const zeros = Buffer.alloc(Math.ceil(total));
  const idat = deflateSync(zeros, { level: 9 });
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A camera photo as a phone takes it: 4032 × 3024, with detail and grain (2–4 MB as a JPEG), stored
 * sideways with EXIF orientation 6 ("turn right to view") and a GPS position, as phones do.
 */
export async function makePhonePhoto(seed = 1): Promise<Buffer> {
  const [w, h] = [168, 126];
  const raw = Buffer.alloc(w * h * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    raw[i] = 60 + ((x >>> 24) % 140);
  }
  const grain = Buffer.alloc(4032 * 3024);
  for (let i = 0; i < grain.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    grain[i] = 120 + ((x >>> 28) % 15);
  }
  const texture = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .resize(4032, 3024, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  for (let i = 0; i < texture.length; i++)
    texture[i] = Math.min(255, Math.max(0, texture[i]! + grain[Math.floor(i / 3)]! - 127));
  return sharp(texture, { raw: { width: 4032, height: 3024, channels: 3 } })
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 15' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '38/1 34/1 54/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '121/1 29/1 38/1',
      },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}
