import { useSyncExternalStore, type ReactNode } from 'react';

const subscribe = () => () => {};

/**
 * False while React takes over a page the server rendered (and in that render itself), true once it
 * has: a form's submit button waits for it, so a tap before the app runs cannot send the form the
 * browser's way (a GET with the client's details in the address).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * Renders `children(hydrated)`: only what it wraps renders again once the app has taken over, not the
 * whole page around it. That render is synchronous (React's rule for a store whose server value
 * differs), so a page that called `useHydrated` itself held the main thread while its whole form
 * rendered again.
 */
export function WhenHydrated({ children }: { children: (hydrated: boolean) => ReactNode }): ReactNode {
  return children(useHydrated());
}
