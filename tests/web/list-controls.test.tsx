// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useListControls } from '../../src/web/components/list-toolbar';

afterEach(cleanup);

type Controls = ReturnType<typeof useListControls<'All' | 'Pending'>>;

/** A list page's controls in a real router, handed out to the test. */
function mount() {
  const seen: { controls?: Controls } = {};
  function List() {
    seen.controls = useListControls(['All', 'Pending'] as const, 'All');
    return null;
  }
  const router = createMemoryRouter([{ path: '/admin/quote-requests', element: <List /> }], {
    initialEntries: ['/admin/quote-requests?page=3'],
  });
  render(<RouterProvider router={router} />);
  return { seen, router };
}

// A flaky browser test found it (back-office.spec.ts, "a list keeps its search and filter"): the
// filter chosen and a search typed before the list drew again lost the filter from the address.
describe('a list’s search and filter in the address', () => {
  it('keeps a filter chosen and a search typed before the page draws again', async () => {
    const { seen, router } = mount();
    await act(async () => {
      seen.controls!.setFilter('Pending');
      seen.controls!.setSearch('q1234');
    });
    const search = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(search)).toEqual({ status: 'Pending', q: 'q1234' });
    expect(seen.controls!.filter).toBe('Pending');
    expect(seen.controls!.search).toBe('q1234');
    // Later changes build on what the address shows now.
    await act(async () => seen.controls!.setPage(2));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: 'Pending',
      q: 'q1234',
      page: '2',
    });
    await act(async () => seen.controls!.setFilter('All'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ q: 'q1234' });
  });
});
