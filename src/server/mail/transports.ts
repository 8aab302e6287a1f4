import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { MailAttachment, mailOutbox } from './tables';

export type OutboxMessage = typeof mailOutbox.$inferSelect;

/** The business at the moment of sending: its name on the From line, its address for replies. */
export interface Sender {
  name: string;
  /** Where replies go, unless the message names someone else (a client's address on an owner notice). */
  replyTo: string;
}

export interface MailTransport {
  describe: string;
  /** `sender` gives the display name of the configured From address and the default Reply-To. */
  deliver(message: OutboxMessage, sender?: Sender): Promise<void>;
  close(): void;
}

/** "Name <address>" or a bare address: the address part. */
export function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();
}

function toNodemailer(from: string, m: OutboxMessage, sender?: Sender) {
  // Mail comes from a no-reply address: a reply must reach the business (or whom the message names).
  const replyTo = m.replyTo ?? sender?.replyTo;
  return {
    from: sender ? { name: sender.name, address: addressOf(from) } : from,
    to: m.toAddress,
    ...(replyTo ? { replyTo } : {}),
    subject: m.subject,
    text: m.text,
    html: m.html,
    // A stable Message-ID lets receivers recognise a retried delivery of the same message.
    messageId: `<${m.id}@outbox.handyman>`,
    date: m.createdAt,
    // Bytes read from a stored document (the relay puts them in `content`), or kept in the row as base64.
    attachments: (m.attachments as (MailAttachment | { filename: string; contentType: string; content: Buffer })[]).map(
      (a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content:
          'content' in a ? a.content : 'contentBase64' in a ? Buffer.from(a.contentBase64, 'base64') : Buffer.alloc(0),
      }),
    ),
  };
}

export function smtpTransport(url: string, from: string): MailTransport {
  // A small pool reuses connections: a backlog after an outage drains quickly.
  const transporter = nodemailer.createTransport({ url, pool: true, maxConnections: 2, maxMessages: 100 });
  return {
    describe: `SMTP ${new URL(url).host}`,
    async deliver(message, sender) {
      await transporter.sendMail(toNodemailer(from, message, sender));
    },
    close: () => transporter.close(),
  };
}

/** Without SMTP_URL: each message becomes an .eml file that any mail program opens. */
export function fileTransport(dir: string, from: string, log: FastifyBaseLogger): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `files in ${dir}`,
    async deliver(message, sender) {
      const info = await transporter.sendMail(toNodemailer(from, message, sender));
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${message.createdAt.toISOString().replace(/[:.]/g, '-')}-${message.id}.eml`);
      // Mail files carry clients' details and live quote links: for the server's account only.
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ file, to: message.toAddress, subject: message.subject }, `Mail written to ${file}`);
    },
    close: () => transporter.close(),
  };
}
