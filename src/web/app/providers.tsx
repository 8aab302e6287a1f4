import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { createQueryClient } from './query-client';
import { cssVariablesResolver, theme } from './theme';

const ToastContainer = lazy(() => import('./toast-container'));

/**
 * Mantine's toast container (its transitions, close buttons and scroll-bar handling) is loaded when
 * the first toast is shown: most visits to the public pages show none. Toasts shown meanwhile wait
 * in the notifications store and appear once it has loaded.
 */
function Toasts() {
  const { notifications } = useNotifications();
  // Once loaded, it stays: closing the last toast must not unmount it mid-transition.
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null;
}

/**
 * The built app links the theme's CSS as a stylesheet in <head> (render-page.tsx `themeCss`), so the
 * pages carry no <style> elements in <body>; the development server has no build, so Mantine writes it.
 */
const themeInline = import.meta.env.DEV;

/** `queryClient`: one holding a page's data already (the server rendered the page with it). */
export function Providers({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        withCssVariables={themeInline}
        withGlobalClasses={themeInline}
      >
        <Toasts />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
