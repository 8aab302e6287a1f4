import { describe, expect, it } from 'vitest';
import { formatBytes, formatSpan, systemLines, type SystemFacts } from '../../src/server/system/lines';
import type { JobRecord } from '../../src/server/lib/job-board';

const now = new Date('2026-11-28T01:00:00Z'); // 5 PM in Sacramento, the evening before in UTC terms
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

function job(over: Partial<JobRecord> = {}): JobRecord {
  return {
    name: 'mail-relay',
    label: 'Sending e-mail',
    everySeconds: 2,
    runs: 10,
    failures: 0,
    lastStartedAt: new Date(now.getTime() - 2000),
    lastFinishedAt: new Date(now.getTime() - 1900),
    lastError: null,
    lastErrorAt: null,
    nextRunAt: new Date(now.getTime() + 100),
    ...over,
  };
}

function facts(over: Partial<SystemFacts> = {}): SystemFacts {
  return {
    now,
    timeZone: 'America/Los_Angeles',
    app: { version: '0.1.0', node: 'v24.1.0', startedAt: hoursAgo(3.2) },
    mail: {
      transport: 'SMTP mail.example.com:587',
      sends: true,
      waiting: 0,
      oldestWaitingSince: null,
      failing: 0,
      oldestFailure: null,
      lastSentAt: hoursAgo(1),
      reminders: { scheduled: 4, lastSentAt: hoursAgo(20) },
      relay: job(),
    },
    backups: { kind: 'pglite', everyHours: 24, kept: 7, last: { at: hoursAgo(5), size: 12_400_000 } },
    jobs: [job()],
    database: {
      kind: 'pglite',
      version: '17.5',
      sizeBytes: 48_000_000,
      migrations: { applied: 39, known: 39, newest: '0038_system_page' },
    },
    disk: { freeBytes: 40 * 1024 ** 3, totalBytes: 100 * 1024 ** 3 },
    redis: undefined,
    payments: { enabled: false, keyUnreadable: false },
    texts: {
      enabled: false,
      tokenUnreadable: false,
      failedLastDay: 0,
      latestFailure: null,
      stuck: 0,
      oldestStuck: null,
      lastSentAt: null,
    },
    ...over,
  };
}

const line = (f: SystemFacts, key: string) => systemLines(f).find((l) => l.key === key)!;
const red = (f: SystemFacts) =>
  systemLines(f)
    .filter((l) => l.state === 'failing')
    .map((l) => l.key);

describe('the System page lines', () => {
  it('are all green or off for a healthy install, with the business clock in their words', () => {
    const lines = systemLines(facts());
    expect(red(facts())).toEqual([]);
    expect(lines.map((l) => l.key)).toEqual([
      'mail',
      'reminders',
      'backups',
      'job:mail-relay',
      'database',
      'disk',
      'payments',
      'texts',
      'app',
    ]);
    expect(line(facts(), 'mail').summary).toBe(
      'Sent through SMTP mail.example.com:587. The last one left Fri, Nov 27, 4:00 PM.',
    );
    expect(line(facts(), 'reminders').summary).toBe(
      '4 reminders scheduled (visits, quotes, invoices). The last one left Thu, Nov 26, 9:00 PM.',
    );
    expect(line(facts(), 'backups').summary).toBe(
      'The newest is from Fri, Nov 27, 12:00 PM (11.8 MB); the next around Sat, Nov 28, 1:00 AM. 7 backups kept.',
    );
    expect(line(facts(), 'database').summary).toBe(
      'Embedded (PGlite) 17.5, 45.8 MB. 39 migrations applied, the newest 0038_system_page.',
    );
    expect(line(facts(), 'disk').summary).toBe('40.0 GB free of 100 GB under DATA_DIR.');
    expect(line(facts(), 'app').summary).toBe(
      'Version 0.1.0 on Node.js v24.1.0, running for 3 h 12 min (since Fri, Nov 27, 1:48 PM).',
    );
    for (const l of lines) if (l.state === 'ok') expect(l.action).toBeNull();
  });

  it('turn the mail red with the oldest failure and what to do', () => {
    const f = facts();
    f.mail = { ...f.mail, failing: 3, oldestFailure: { createdAt: hoursAgo(2), error: '550 Mailbox unavailable' } };
    const mail = line(f, 'mail');
    expect(mail.state).toBe('failing');
    expect(mail.summary).toBe(
      '3 e-mails could not be sent, the oldest since Fri, Nov 27, 3:00 PM: 550 Mailbox unavailable',
    );
    expect(mail.action).toContain('SMTP_URL');
  });

  it('turn the mail red when messages wait with nothing sending them, not while they are fresh', () => {
    const f = facts();
    f.mail = { ...f.mail, waiting: 2, oldestWaitingSince: new Date(now.getTime() - 60_000) };
    expect(line(f, 'mail').state).toBe('ok');
    expect(line(f, 'mail').summary).toContain('2 e-mails going out now.');
    f.mail = { ...f.mail, oldestWaitingSince: hoursAgo(1) };
    expect(line(f, 'mail')).toMatchObject({ state: 'failing', action: expect.stringContaining('Restart') });
  });

  it('say plainly that mail written to files reaches nobody', () => {
    const f = facts();
    f.mail = { ...f.mail, transport: 'files in /srv/data/mail', sends: false };
    expect(line(f, 'mail')).toMatchObject({
      state: 'failing',
      summary: 'E-mail is written to files in /srv/data/mail, not sent: clients and staff receive nothing.',
    });
  });

  it('turn the backups red when the newest is late or the last run failed, off on PostgreSQL or when turned off', () => {
    expect(
      line(
        facts({ backups: { kind: 'pglite', everyHours: 24, kept: 1, last: { at: hoursAgo(27), size: 1 } } }),
        'backups',
      ).state,
    ).toBe('failing');
    expect(
      line(
        facts({ backups: { kind: 'pglite', everyHours: 24, kept: 1, last: { at: hoursAgo(25), size: 1 } } }),
        'backups',
      ).state,
    ).toBe('ok');
    const failed = facts({
      jobs: [
        job({
          name: 'backups',
          label: 'Automatic backups',
          everySeconds: 600,
          lastError: 'ENOSPC: no space left',
          lastErrorAt: hoursAgo(0.1),
        }),
      ],
    });
    expect(line(failed, 'backups').summary).toContain('ENOSPC: no space left');
    expect(line(facts({ backups: { kind: 'postgres' } }), 'backups').state).toBe('off');
    expect(line(facts({ backups: { kind: 'pglite', everyHours: 0, kept: 0, last: null } }), 'backups').state).toBe(
      'off',
    );
    // No backup yet: green for the first day after the start, then red.
    const none = { kind: 'pglite' as const, everyHours: 24, kept: 0, last: null };
    expect(line(facts({ backups: none }), 'backups').state).toBe('ok');
    expect(
      line(facts({ backups: none, app: { version: '0.1.0', node: 'v24', startedAt: hoursAgo(30) } }), 'backups').state,
    ).toBe('failing');
  });

  it('show each job red after a failed run or when it has stopped running', () => {
    const failing = facts({ jobs: [job({ lastError: 'connect ECONNREFUSED', lastErrorAt: hoursAgo(0.01) })] });
    expect(line(failing, 'job:mail-relay')).toMatchObject({ state: 'failing' });
    expect(line(failing, 'job:mail-relay').summary).toContain('connect ECONNREFUSED');
    const stalled = facts({ jobs: [job({ lastStartedAt: hoursAgo(1), lastFinishedAt: hoursAgo(1) })] });
    expect(line(stalled, 'job:mail-relay').summary).toBe('Runs every 2 s, but has not run since Fri, Nov 27, 4:00 PM.');
    // A long run still under way is not "stopped".
    const running = facts({ jobs: [job({ lastStartedAt: hoursAgo(0.5), lastFinishedAt: hoursAgo(1) })] });
    expect(line(running, 'job:mail-relay').state).toBe('ok');
  });

  it('turn the disk red below 1 GB or 5 %, and Redis red when it does not answer', () => {
    expect(line(facts({ disk: { freeBytes: 900 * 1024 ** 2, totalBytes: 10 * 1024 ** 3 } }), 'disk').state).toBe(
      'failing',
    );
    expect(line(facts({ disk: { freeBytes: 4 * 1024 ** 3, totalBytes: 100 * 1024 ** 3 } }), 'disk').state).toBe(
      'failing',
    );
    expect(line(facts({ redis: 'down' }), 'redis').state).toBe('failing');
    expect(line(facts({ redis: 'up' }), 'redis').state).toBe('ok');
  });

  it('red on a database behind its migrations and on a Stripe key this install cannot read', () => {
    const f = facts();
    f.database = { ...f.database, migrations: { applied: 37, known: 39, newest: '0036_commercial_documents' } };
    expect(line(f, 'database').state).toBe('failing');
    expect(line(facts({ payments: { enabled: false, keyUnreadable: true } }), 'payments').state).toBe('failing');
    expect(line(facts({ payments: { enabled: true, keyUnreadable: false } }), 'payments').state).toBe('ok');
  });

  it('say texts are off, on with the last one sent, or red on failures of the last day, a stuck relay or an unreadable token', () => {
    const texts = facts().texts;
    expect(line(facts(), 'texts')).toMatchObject({ state: 'off', summary: 'Off: clients are e-mailed only.' });
    expect(line(facts({ texts: { ...texts, enabled: true, lastSentAt: hoursAgo(2) } }), 'texts').summary).toBe(
      'On, with your Twilio account. The last text left Fri, Nov 27, 3:00 PM.',
    );
    const failed = line(
      facts({
        texts: {
          ...texts,
          enabled: true,
          failedLastDay: 2,
          latestFailure: 'The carrier reported it undelivered (Twilio 30003)',
        },
      }),
      'texts',
    );
    expect(failed.state).toBe('failing');
    expect(failed.summary).toBe(
      '2 texts could not be delivered in the last day. The latest: The carrier reported it undelivered (Twilio 30003).',
    );
    expect(
      line(facts({ texts: { ...texts, enabled: true, stuck: 1, oldestStuck: hoursAgo(1) } }), 'texts').summary,
    ).toContain('nothing is sending them');
    expect(line(facts({ texts: { ...texts, tokenUnreadable: true } }), 'texts').state).toBe('failing');
  });

  it('give every red line something to do', () => {
    const f = facts({ redis: 'down', disk: { freeBytes: 1, totalBytes: 10 } });
    f.mail = { ...f.mail, failing: 1, oldestFailure: { createdAt: now, error: 'x' } };
    f.texts = { ...f.texts, enabled: true, failedLastDay: 1, latestFailure: 'x' };
    for (const l of systemLines(f).filter((x) => x.state === 'failing')) expect(l.action).toBeTruthy();
  });
});

describe('sizes and spans', () => {
  it('read as people say them', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(250 * 1024 ** 2)).toBe('250 MB');
    expect(formatSpan(40_000)).toBe('40 s');
    expect(formatSpan(100)).toBe('100 ms');
    expect(formatSpan(3 * 3_600_000 + 12 * 60_000)).toBe('3 h 12 min');
    expect(formatSpan(2 * 86_400_000 + 4 * 3_600_000)).toBe('2 days 4 h');
    expect(formatSpan(86_400_000)).toBe('1 day');
  });
});
