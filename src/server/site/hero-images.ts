import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { HERO_IMAGE_COUNT } from '#shared/constants';
import { projectRoot } from '../paths';

export const HERO_WIDTHS = [640, 1280, 1920] as const;
export type HeroWidth = (typeof HERO_WIDTHS)[number];
export const bundledHeroDir = path.join(projectRoot, 'src/server/assets/hero');
const PHOTO = /\.(jpe?g|png|webp|avif|tiff?)$/i;

/**
 * The hero photos: the business's own from HERO_IMAGES_DIR when it holds any (first five by name),
 * otherwise the bundled illustrations. Read on every call, so dropping in photos needs no restart.
 */
export function heroSources(customDir: string | undefined): string[] {
  for (const dir of [customDir, bundledHeroDir]) {
    if (!dir || !fs.existsSync(dir)) continue;
    const files = fs
      .readdirSync(dir)
      .filter((f) => PHOTO.test(f))
      .sort()
      .slice(0, HERO_IMAGE_COUNT)
      .map((f) => path.join(dir, f));
    if (files.length > 0) return files;
  }
  return [];
}

const cache = new Map<string, Promise<Buffer>>();

/** One photo scaled to a screen width as WebP (or JPEG for link previews); cached until the file changes. */
export function renderHero(source: string, width: HeroWidth, format: 'webp' | 'jpeg'): Promise<Buffer> {
  const { mtimeMs, size } = fs.statSync(source);
  const key = `${source}|${mtimeMs}|${size}|${width}|${format}`;
  let rendered = cache.get(key);
  if (!rendered) {
    const pipeline = sharp(source)
      .rotate()
      .resize({ width, height: Math.round((width * 9) / 16), fit: 'cover', withoutEnlargement: false });
    rendered = (
      format === 'webp' ? pipeline.webp({ quality: 72, effort: 4 }) : pipeline.jpeg({ quality: 78, mozjpeg: true })
    ).toBuffer();
    rendered.catch(() => cache.delete(key));
    cache.set(key, rendered);
  }
  return rendered;
}
