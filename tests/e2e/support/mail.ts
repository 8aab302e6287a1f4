import fs from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';

/**
 * Messages already read, by file name. The SMTP server of the global setup writes each message under
 * a temporary name and renames it when whole, so a listed file never changes: it is parsed once per
 * worker, not at every poll of every wait (the folder holds hundreds by the end of the suite).
 */
const parsed = new Map<string, Promise<ParsedMail>>();

/** Every message the e2e SMTP server has received so far. */
export async function receivedMail(): Promise<ParsedMail[]> {
  const dir = process.env.E2E_MAIL_DIR!;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  return Promise.all(
    files.map((f) => {
      let message = parsed.get(f);
      if (!message) {
        message = simpleParser(fs.readFileSync(path.join(dir, f)));
        parsed.set(f, message);
      }
      return message;
    }),
  );
}

/** Waits for a message to `to` whose subject matches. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 15_000): Promise<ParsedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = (await receivedMail()).find(
      (m) => m.to && JSON.stringify(m.to).includes(to) && subject.test(m.subject ?? ''),
    );
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No e-mail to ${to} matching ${subject}`);
}

/** Makes the e2e SMTP server refuse `address` (550 Mailbox unavailable) until the returned undo is called. */
export function refuseMailTo(address: string): () => void {
  const dir = path.join(process.env.E2E_MAIL_DIR!, 'refused');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, address);
  fs.writeFileSync(file, '');
  return () => fs.rmSync(file, { force: true });
}
