// Issue 11, item 5: DATA_DIR and everything in it is owner-only, whatever the umask, and the server
// says so when it had to close it up.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/smtp';
import { freePort, startServerProcess, waitForHealth } from '../helpers/server-process';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-perm-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o777) !== (stat.isDirectory() ? 0o700 : 0o600))
      found.push(`${path.relative(dir, p) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return found;
}

describe('DATA_DIR permissions', () => {
  it('makes the embedded database, the key and mail files owner-only, and warns about an open folder', async () => {
    const dataDir = path.join(tmp, 'data');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'left-behind.txt'), 'x', { mode: 0o644 });
    const previous = process.umask(0o022);
    const port = await freePort();
    const server = startServerProcess({
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      MAIL_POLL_MS: '100',
    });
    process.umask(previous);
    try {
      await waitForHealth(port, server);
      const res = await fetch(`http://127.0.0.1:${port}/api/quoterequest/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          contactPerson: { name: 'Dana Whitfield', email: 'dana@home.test' },
          address: { street: '1201 K St', city: 'Sacramento', state: 'CA', zip: '95814' },
          notes: 'Fix the gate',
        }),
      });
      expect(res.status).toBe(201);
      await waitFor(
        () => fs.existsSync(path.join(dataDir, 'mail')) && fs.readdirSync(path.join(dataDir, 'mail')).length >= 2,
        { what: 'mail files' },
      );
      expect(server.output()).toContain(
        `DATA_DIR (${dataDir}) was open to other users of this machine (mode 755); it is now owner-only (700)`,
      );
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    expect(openToOthers(dataDir)).toEqual([]);
  });
});
