import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  raw: string;
  parsed: ParsedMail;
  envelopeTo: string[];
}

/**
 * A real SMTP server on loopback that keeps what it receives. It can be stopped and started again
 * on the same port to play an outage.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** Recipients this server refuses (550), to play a bad mailbox while the server stays up. */
  readonly refusing = new Set<string>();
  private server: SMTPServer | undefined;
  port = 0;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(port = this.port): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refusing.has(address.address))
          return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              this.received.push({
                raw: raw.toString('utf8'),
                parsed,
                envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              });
              callback();
            })
            .catch(callback);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.envelopeTo.includes(address));
  }
}

/** Polls until `check` returns a truthy value or the time runs out. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 50, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
