import { afterEach, describe, expect, it, vi } from 'vitest';
import { every, JobBoard } from '../../src/server/lib/job-board';

describe('the board of background jobs', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('records each run, its failure without throwing it away, and clears the error after a good run', async () => {
    const board = new JobBoard();
    const seen: string[] = [];
    board.onRun((name, outcome) => seen.push(`${name}:${outcome}`));
    board.declare('backups', 'Automatic backups', 600);
    await expect(
      board.run('backups', () => Promise.reject(new Error('ENOSPC: no space left on device'))),
    ).rejects.toThrow('ENOSPC');
    expect(board.get('backups')).toMatchObject({ runs: 1, failures: 1, lastError: 'ENOSPC: no space left on device' });
    expect(await board.run('backups', () => Promise.resolve(7))).toBe(7);
    expect(board.get('backups')).toMatchObject({ runs: 2, failures: 1, lastError: null });
    expect(seen).toEqual(['backups:failed', 'backups:ok']);
    await expect(board.run('nobody', () => Promise.resolve())).rejects.toThrow('No job named nobody');
  });

  it('runs a job on its timer, one turn at a time, and keeps going after a failed turn', async () => {
    vi.useFakeTimers();
    const board = new JobBoard();
    board.declare('check', 'Check', 10);
    const errors: unknown[] = [];
    let turns = 0;
    let release: () => void = () => {};
    const stop = every(board, 'check', { everyMs: 10_000, firstAfterMs: 1000, onError: (e) => errors.push(e) }, () => {
      turns += 1;
      if (turns === 1) return Promise.reject(new Error('first turn fails'));
      return new Promise<void>((resolve) => (release = resolve));
    });
    expect(board.get('check')!.nextRunAt!.getTime()).toBe(Date.now() + 1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(turns).toBe(1);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(turns).toBe(2);
    // The second turn is still under way: the timer does not start a third.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(turns).toBe(2);
    release();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(turns).toBe(3);
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(turns).toBe(3);
    expect(board.get('check')).toMatchObject({ failures: 1, lastError: null });
  });
});
