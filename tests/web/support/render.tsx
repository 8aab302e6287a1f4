import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

/**
 * Renders a screen's component as the app does (Mantine, a query client, a router at "/") and
 * returns a user to type and click with. Pass the query client to refetch as time would.
 */
export function renderInApp(element: ReactElement, queryClient = new QueryClient()) {
  const router = createMemoryRouter([{ path: '/', element }]);
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return userEvent.setup();
}

/** Mantine's autosizing Textarea listens for web fonts loading; happy-dom has no `document.fonts`. */
export function standInForFontLoading() {
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
}
