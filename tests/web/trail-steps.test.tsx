// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditList } from '#shared/schemas/audit';
import { TrailSteps } from '../../src/web/features/audit/components/trail-steps';

afterEach(cleanup);

const entry = (id: string, at: string) => ({
  _id: id,
  at,
  userId: 'u1',
  actorName: 'Marta Alvarez',
  ip: '203.0.113.5',
  kind: 'jobs',
  action: 'Changed a job',
  route: 'PUT /api/jobs/:id',
  target: null,
  details: {},
  record: null,
});

const trail = (
  nextBefore: string | null,
  entries = [entry('a', '2026-11-24T22:13:11.000Z'), entry('b', '2026-11-20T17:02:45.000Z')],
): AuditList => ({
  entries,
  totalPages: 1,
  total: 2,
  capped: false,
  nextBefore,
  people: [],
});

function show(props: Partial<Parameters<typeof TrailSteps>[0]>) {
  const onOlder = vi.fn();
  const onNewest = vi.fn();
  render(
    <MantineProvider>
      <TrailSteps
        trail={trail('cursor-1')}
        byTime={false}
        loading={false}
        timeZone="America/Los_Angeles"
        onOlder={onOlder}
        onNewest={onNewest}
        {...props}
      />
    </MantineProvider>,
  );
  return { onOlder, onNewest };
}

const button = (name: string) => screen.queryByRole('button', { name });

describe('stepping through the trail by time', () => {
  it('on the numbered pages: Older entries while older ones match, no way to the newest (the pages have it)', () => {
    const { onOlder } = show({});
    expect(button('Newest entries')).toBeNull();
    fireEvent.click(button('Older entries')!);
    expect(onOlder).toHaveBeenCalledWith('cursor-1');
    cleanup();
    render(
      <MantineProvider>
        <TrailSteps
          trail={trail(null)}
          byTime={false}
          loading={false}
          timeZone="UTC"
          onOlder={vi.fn()}
          onNewest={vi.fn()}
        />
      </MantineProvider>,
    );
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('past them: where the page falls in time, both ways, and Older not offered while the next page loads', () => {
    const { onNewest } = show({ byTime: true });
    expect(screen.getByRole('status').textContent).toBe(
      'From Nov 24, 2026, 2:13:11 PM back to Nov 20, 2026, 9:02:45 AM',
    );
    fireEvent.click(button('Newest entries')!);
    expect(onNewest).toHaveBeenCalledOnce();
    cleanup();
    show({ byTime: true, loading: true });
    expect(button('Older entries')!.hasAttribute('disabled')).toBe(true);
  });

  it('at the oldest: says so, with no Older button', () => {
    show({ byTime: true, trail: trail(null) });
    expect(button('Older entries')).toBeNull();
    expect(button('Newest entries')).not.toBeNull();
    expect(screen.getByRole('status').textContent).toMatch(/9:02:45 AM: the oldest entries that match\.$/);
    cleanup();
    show({ byTime: true, trail: trail(null, []) });
    expect(screen.getByRole('status').textContent).toBe('Nothing older matches.');
  });
});
