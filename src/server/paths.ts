import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json, found from this file whether it runs from src/ or dist/. */
function findProjectRoot(start: string): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
export const webDistDir = path.join(projectRoot, 'dist/web');
