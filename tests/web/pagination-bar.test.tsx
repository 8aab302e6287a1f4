// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaginationBar } from '../../src/web/components/pagination-bar';

afterEach(cleanup);

function labels() {
  return within(screen.getByRole('navigation', { name: 'Pages' }))
    .getAllByRole('button')
    .map((b) => b.getAttribute('aria-label') ?? b.textContent);
}

describe('pagination', () => {
  it('shows Previous/Next, a window of five pages, first/last and ellipses', () => {
    render(
      <MantineProvider>
        <PaginationBar page={6} totalPages={20} onChange={() => {}} />
      </MantineProvider>,
    );
    expect(labels()).toEqual([
      'First page',
      'Previous',
      'Page 1',
      'Page 4',
      'Page 5',
      'Page 6',
      'Page 7',
      'Page 8',
      'Page 20',
      'Next',
      'Last page',
    ]);
    expect(screen.getAllByText('…')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Page 6' }).getAttribute('aria-current')).toBe('page');
  });

  it('moves by one, jumps to the ends, and disables what cannot be used', () => {
    const onChange = vi.fn();
    render(
      <MantineProvider>
        <PaginationBar page={1} totalPages={3} onChange={onChange} />
      </MantineProvider>,
    );
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Last page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(onChange.mock.calls.map((c) => c[0])).toEqual([2, 3, 2]);
  });

  it('is not shown for a single page', () => {
    render(
      <MantineProvider>
        <PaginationBar page={1} totalPages={1} onChange={() => {}} />
      </MantineProvider>,
    );
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });
});
