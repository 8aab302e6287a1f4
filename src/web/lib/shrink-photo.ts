import { MAX_UPLOAD_BYTES } from '#shared/constants';

/**
 * Phone photos made small enough to send before the 3 MB rule applies: a 4032 × 3024 camera JPEG
 * (2–4 MB) becomes about 2048 × 1536 and a few hundred KB, so ten of them fit. The platform does the
 * work (createImageBitmap decodes and turns the photo upright, a canvas scales and re-encodes it),
 * which also drops the photo's metadata, such as the GPS position of the client's home.
 */

/** The long edge of a photo as sent: more than any screen shows of it. */
export const PHOTO_LONG_EDGE = 2048;
/** What one photo may weigh so that ten fit in the 3 MB a request may carry. */
export const PHOTO_TARGET_BYTES = Math.floor(MAX_UPLOAD_BYTES / 10);
const FIRST_QUALITY = 0.8;
const LOWEST_QUALITY = 0.5;

function canvasOf(width: number, height: number) {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function encode(canvas: OffscreenCanvas | HTMLCanvasElement, quality: number): Promise<Blob> {
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type: 'image/jpeg', quality });
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('encoding failed'))), 'image/jpeg', quality),
  );
}

/**
 * A JPEG of the canvas within PHOTO_TARGET_BYTES if it can be: quality 0.8 first (most photos), then
 * lower in one or two steps for a photo full of fine detail, never below 0.5.
 */
async function toJpeg(canvas: OffscreenCanvas | HTMLCanvasElement): Promise<Blob> {
  let blob = await encode(canvas, FIRST_QUALITY);
  let quality = FIRST_QUALITY;
  while (blob.size > PHOTO_TARGET_BYTES && quality > LOWEST_QUALITY) {
    quality = Math.max(LOWEST_QUALITY, quality - (blob.size > PHOTO_TARGET_BYTES * 1.3 ? 0.2 : 0.1));
    blob = await encode(canvas, quality);
  }
  return blob;
}

/**
 * A JPEG's size as shown (EXIF orientations 5–8 turn it a quarter), read from its header: the
 * browser can then decode it straight to the size sent, which is much faster than decoding all
 * 12 megapixels first. Undefined for anything it cannot read.
 */
export function jpegDisplaySize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let orientation = 1;
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (marker === 0xe1 && String.fromCharCode(...bytes.subarray(offset + 4, offset + 8)) === 'Exif')
      orientation = exifOrientation(bytes.subarray(offset + 10, offset + 2 + length)) ?? 1;
    // SOF0–SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = (bytes[offset + 5]! << 8) | bytes[offset + 6]!;
      const width = (bytes[offset + 7]! << 8) | bytes[offset + 8]!;
      if (!width || !height) return undefined;
      return orientation >= 5 ? { width: height, height: width } : { width, height };
    }
    offset += 2 + length;
  }
  return undefined;
}

/** The Orientation tag (0x0112) of an EXIF block's first directory. */
function exifOrientation(tiff: Uint8Array): number | undefined {
  if (tiff.length < 8) return undefined;
  const little = tiff[0] === 0x49;
  const u16 = (i: number) => (little ? tiff[i]! | (tiff[i + 1]! << 8) : (tiff[i]! << 8) | tiff[i + 1]!);
  const u32 = (i: number) => (little ? u16(i) + u16(i + 2) * 65536 : u16(i) * 65536 + u16(i + 2));
  const dir = u32(4);
  if (dir + 2 > tiff.length) return undefined;
  const entries = u16(dir);
  for (let i = 0; i < entries; i++) {
    const entry = dir + 2 + i * 12;
    if (entry + 12 > tiff.length) return undefined;
    if (u16(entry) === 0x0112) return u16(entry + 8);
  }
  return undefined;
}

/** The size to send: the long edge at most PHOTO_LONG_EDGE. */
function targetSize(width: number, height: number) {
  const scale = Math.min(1, PHOTO_LONG_EDGE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Decodes the photo upright, straight to the size sent when its header tells the size (JPEG). */
async function decode(file: File): Promise<ImageBitmap> {
  const shown =
    file.type === 'image/jpeg'
      ? jpegDisplaySize(new Uint8Array(await file.slice(0, 256 * 1024).arrayBuffer()))
      : undefined;
  if (shown) {
    const { width, height } = targetSize(shown.width, shown.height);
    return createImageBitmap(file, {
      imageOrientation: 'from-image',
      resizeWidth: width,
      resizeHeight: height,
      resizeQuality: 'medium',
    });
  }
  return createImageBitmap(file, { imageOrientation: 'from-image' });
}

/**
 * The photo as it will be sent: a JPEG no larger than PHOTO_LONG_EDGE on its long side, upright,
 * without metadata. A GIF, or a file the browser cannot decode, is returned as it is (the server
 * checks every file and names the one it refuses).
 */
export async function shrinkPhoto(file: File): Promise<File> {
  if (file.type === 'image/gif' || typeof createImageBitmap === 'undefined') return file;
  const started = performance.now();
  try {
    return await shrink(file);
  } finally {
    // Read by `npm run bench` (the time a phone takes per photo).
    performance.measure(SHRINK_MEASURE, { start: started, end: performance.now() });
  }
}

/** The name of the performance measure each shrink leaves. */
export const SHRINK_MEASURE = 'shrink-photo';

async function shrink(file: File): Promise<File> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await decode(file);
  } catch {
    return file;
  }
  try {
    const { width, height } = targetSize(bitmap.width, bitmap.height);
    const canvas = canvasOf(width, height);
    const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
    if (!context) return file;
    // JPEG has no transparency: a transparent PNG goes on white, as it looks on the page.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    const blob = await toJpeg(canvas);
    const name = file.name.replace(/\.[^.]*$/, '') + '.jpg';
    return new File([blob], name, { type: 'image/jpeg', lastModified: file.lastModified });
  } catch {
    return file;
  } finally {
    bitmap.close();
  }
}
