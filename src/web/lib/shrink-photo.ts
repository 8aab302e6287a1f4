import { MAX_UPLOAD_BYTES } from '../../shared/constants';

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
 * The photo as it will be sent: a JPEG no larger than PHOTO_LONG_EDGE on its long side, upright,
 * without metadata. A GIF, or a file the browser cannot decode, is returned as it is (the server
 * checks every file and names the one it refuses).
 */
export async function shrinkPhoto(file: File): Promise<File> {
  if (file.type === 'image/gif' || typeof createImageBitmap === 'undefined') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const scale = Math.min(1, PHOTO_LONG_EDGE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
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
