import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegDisplaySize } from '../../src/web/lib/shrink-photo';
import { makeJpeg, makePhonePhoto } from '../helpers/images';

describe("a JPEG's size as shown, from its header", () => {
  it('reads the size, turned a quarter for the EXIF orientations that say so', async () => {
    expect(jpegDisplaySize(await makeJpeg({ width: 640, height: 480, withGps: true }))).toEqual({
      width: 640,
      height: 480,
    });
    // Stored 4032 × 3024 with orientation 6: shown upright, 3024 wide.
    expect(jpegDisplaySize(await makePhonePhoto())).toEqual({ width: 3024, height: 4032 });
    const progressive = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#abc' } })
      .jpeg({ progressive: true })
      .withMetadata({ orientation: 8 })
      .toBuffer();
    expect(jpegDisplaySize(progressive)).toEqual({ width: 200, height: 300 });
  });

  it('gives up on anything else rather than guess', async () => {
    expect(jpegDisplaySize(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
    expect(jpegDisplaySize(new Uint8Array([0xff, 0xd8, 0xff]))).toBeUndefined();
    expect(jpegDisplaySize((await makeJpeg()).subarray(0, 20))).toBeUndefined();
  });
});
