import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the embedded database (clients' names, addresses and photos), the signing key and
 * mail files with live quote links: only the account that runs the server may read it. Makes the
 * folder and everything in it owner-only (folders 0700, files 0600) and returns a warning for each
 * thing that was open to others, for the start-up log. Links are left alone, never followed.
 */
export function secureDataDir(dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const warnings: string[] = [];
  const rootMode = fs.statSync(dir).mode & 0o777;
  if (rootMode & 0o077) {
    warnings.push(
      `DATA_DIR (${dir}) was open to other users of this machine (mode ${rootMode.toString(8)}); it is now owner-only (700)`,
    );
  }
  let opened = 0;
  const walk = (target: string, isDir: boolean) => {
    const want = isDir ? 0o700 : 0o600;
    const mode = fs.lstatSync(target).mode & 0o777;
    if (mode & 0o077) {
      opened++;
      fs.chmodSync(target, want);
    }
    if (!isDir) return;
    for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory() || entry.isFile()) walk(path.join(target, entry.name), entry.isDirectory());
    }
  };
  walk(dir, true);
  if (opened > (rootMode & 0o077 ? 1 : 0) && warnings.length === 0) {
    warnings.push(
      `${opened} files or folders in DATA_DIR (${dir}) were open to other users of this machine; they are now owner-only`,
    );
  }
  return warnings;
}
