import sharp from 'sharp';

/** A real photo-like JPEG: a gradient, optionally carrying EXIF with a GPS position and a camera. */
export async function makeJpeg({ width = 640, height = 480, withGps = false, quality = 80 } = {}): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#3a6"/><stop offset="1" stop-color="#36c"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#fc3"/></svg>`;
  let image = sharp(Buffer.from(svg)).jpeg({ quality });
  if (withGps) {
    image = image.withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 15', Copyright: 'Client' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '38/1 34/1 54/1', GPSLongitudeRef: 'W', GPSLongitude: '121/1 29/1 38/1' },
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
