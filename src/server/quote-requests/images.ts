import sharp from 'sharp';
import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import { messages } from '../../shared/messages';
import { badRequest } from '../plugins/errors';

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

function decodeDataUrl(dataUrl: string): Buffer {
  const comma = dataUrl.indexOf(',');
  return Buffer.from(dataUrl.slice(comma + 1), 'base64');
}

/**
 * Checks each photo by its content (not its name or declared type), enforces the 3 MB total,
 * turns it upright and re-encodes it, which drops every piece of metadata (phone photos carry the
 * GPS position of the client's home), and makes a thumbnail.
 */
export async function processImages(dataUrls: string[]): Promise<ProcessedImage[]> {
  const buffers = dataUrls.map(decodeDataUrl);
  const total = buffers.reduce((sum, b) => sum + b.length, 0);
  if (total > MAX_UPLOAD_BYTES) throw badRequest(messages.filesTooLarge);

  const out: ProcessedImage[] = [];
  for (const [index, buffer] of buffers.entries()) {
    const refuse = () => badRequest(`images.${index}: image ${index + 1} is not a JPEG, PNG, WebP or GIF picture`);
    let format: keyof typeof FORMATS;
    try {
      const meta = await sharp(buffer, { limitInputPixels: 60_000_000 }).metadata();
      if (!meta.format || !(meta.format in FORMATS)) throw refuse();
      format = meta.format as keyof typeof FORMATS;
    } catch {
      throw refuse();
    }
    try {
      const base = () => sharp(buffer, { limitInputPixels: 60_000_000, failOn: 'error' }).rotate();
      const resized = base().resize(MAX_EDGE, MAX_EDGE, { fit: 'inside', withoutEnlargement: true });
      // GIFs are kept as their first frame in PNG; the rest keep their format.
      const encoded = format === 'jpeg' ? resized.jpeg({ quality: 85, mozjpeg: true }) : format === 'webp' ? resized.webp({ quality: 85 }) : resized.png();
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      const thumbnail = await base().resize(THUMB_EDGE, THUMB_EDGE, { fit: 'cover' }).webp({ quality: 70 }).toBuffer();
      out.push({ mimeType: format === 'gif' ? 'image/png' : FORMATS[format], width: info.width, height: info.height, data, thumbnail });
    } catch {
      throw refuse();
    }
  }
  return out;
}
