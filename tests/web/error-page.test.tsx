// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorPage } from '../../src/web/app/error-page';

afterEach(cleanup);

function Broken(): never {
  throw new Error('The component broke');
}

describe('the unexpected-error screen', () => {
  it('shows the spec heading, what went wrong, and a way home when a page throws', async () => {
    // React logs the thrown error; that log is the expected outcome here, not a test failure.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = createMemoryRouter([{ path: '/', element: <Broken />, errorElement: <ErrorPage /> }]);
    render(
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeTruthy();
    expect(screen.getByText('The component broke')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go Home' }).getAttribute('href')).toBe('/');
    expect(logged).toHaveBeenCalled();
  });
});
