import sharp from 'sharp';

/** A small real JPEG, as a phone would upload it. */
export async function photo(name: string, color = '#3a6'): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const buffer = await sharp({ create: { width: 800, height: 600, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

/** A file of `bytes` bytes that claims to be a JPEG (the browser only looks at the size). */
export function heavyFile(name: string, bytes: number) {
  return { name, mimeType: 'image/jpeg', buffer: Buffer.alloc(bytes, 1) };
}
