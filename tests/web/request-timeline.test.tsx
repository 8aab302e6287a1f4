// @vitest-environment happy-dom
import { QueryClient } from '@tanstack/react-query';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { timelineQuery, type ActivityEvent, type ActivityTimeline } from '#shared/schemas/activity';
import { RequestTimeline } from '../../src/web/features/activity/components/request-timeline';
import { provideServerFetch } from '../../src/web/lib/api-client';
import { renderInApp } from './support/render';

/** A request's history as the server holds it, oldest first: "Step 1", "Step 2", … */
let history: ActivityEvent[] = [];
const step = (n: number): ActivityEvent => ({
  _id: `e${n}`,
  kind: 'question',
  actor: 'client',
  actorName: null,
  quoteNumber: null,
  message: `Step ${n}`,
  details: {},
  at: new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString(),
  mail: null,
});

/** The endpoint's rule: the newest `limit` before `before`, oldest first, and how many come earlier. */
function answer(url: string): ActivityTimeline {
  const query = timelineQuery.parse(Object.fromEntries(new URL(url, 'http://handyman.test').searchParams));
  const end = query.before ? history.findIndex((e) => e._id === query.before) : history.length;
  const start = Math.max(0, end - query.limit);
  return { events: history.slice(start, end), earlier: start, canText: false };
}

const server = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
beforeEach(() => {
  history = Array.from({ length: 180 }, (_, i) => step(i + 1));
  server.mockReset();
  server.mockImplementation(async (url) => new Response(JSON.stringify(answer(url)), { status: 200 }));
  provideServerFetch(server as unknown as typeof fetch);
});
afterEach(cleanup);

const region = () => screen.getByRole('region', { name: 'Timeline' });
const shown = () =>
  within(region())
    .queryAllByText(/^Step \d+$/)
    .map((node) => node.textContent);
const steps = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `Step ${from + i}`);

describe('the request page’s timeline: the newest steps, earlier ones on asking', () => {
  it('shows the newest 50, then 100 earlier, then the rest; the control goes once all are shown', async () => {
    const user = renderInApp(<RequestTimeline quoteRequestId="r1" />);
    await waitFor(() => expect(shown()).toEqual(steps(131, 180)));
    expect(region().textContent).toContain('130 earlier steps not shown');

    await user.click(screen.getByRole('button', { name: 'Show earlier steps' }));
    await waitFor(() => expect(shown()).toEqual(steps(31, 180)));
    expect(region().textContent).toContain('30 earlier steps not shown');
    expect(server.mock.calls.at(-1)![0]).toBe('/api/quoterequest/r1/timeline?limit=100&before=e131');

    await user.click(screen.getByRole('button', { name: 'Show earlier steps' }));
    await waitFor(() => expect(shown()).toEqual(steps(1, 180)));
    expect(screen.queryByRole('button', { name: 'Show earlier steps' })).toBeNull();
    expect(region().textContent).not.toContain('not shown');
    // Its place goes to the section's title, not to the page's top.
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Timeline' }));
  });

  it('keeps the pages opened when it refreshes, and shows a new step at the end', async () => {
    const queryClient = new QueryClient();
    const user = renderInApp(<RequestTimeline quoteRequestId="r1" />, queryClient);
    await waitFor(() => expect(shown()).toHaveLength(50));
    await user.click(screen.getByRole('button', { name: 'Show earlier steps' }));
    await waitFor(() => expect(shown()).toEqual(steps(31, 180)));

    history.push(step(181));
    await queryClient.refetchQueries();
    // As many steps as were opened (150), the newest among them: the oldest one moves to "earlier".
    await waitFor(() => expect(shown()).toEqual(steps(32, 181)));
    expect(region().textContent).toContain('31 earlier steps not shown');
  });

  it('says when earlier steps could not be loaded, and keeps what it shows', async () => {
    const user = renderInApp(
      <RequestTimeline quoteRequestId="r1" />,
      new QueryClient({ defaultOptions: { queries: { retry: false } } }),
    );
    await waitFor(() => expect(shown()).toHaveLength(50));
    server.mockImplementation(async () => new Response('{"message":"Internal Server Error"}', { status: 500 }));
    await user.click(screen.getByRole('button', { name: 'Show earlier steps' }));
    await waitFor(() => expect(region().textContent).toContain('The earlier steps could not be loaded.'));
    expect(shown()).toEqual(steps(131, 180));
    expect(screen.getByRole('button', { name: 'Show earlier steps' })).toBeTruthy();
  });

  it('has no control for a short history', async () => {
    history = history.slice(0, 12);
    renderInApp(<RequestTimeline quoteRequestId="r1" />);
    await waitFor(() => expect(shown()).toEqual(steps(1, 12)));
    expect(screen.queryByRole('button', { name: 'Show earlier steps' })).toBeNull();
  });
});
