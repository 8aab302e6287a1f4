import { useSyncExternalStore } from 'react';

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
