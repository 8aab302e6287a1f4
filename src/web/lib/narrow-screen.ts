import { useSyncExternalStore } from 'react';
import { NARROW_BREAKPOINT_PX } from '#shared/constants';

/** A phone-sized screen: narrower than NARROW_BREAKPOINT_PX (Mantine's "sm"). */
export const NARROW_SCREEN_QUERY = `(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`;

/** Whether the screen is phone-sized now (for code outside React). */
export const isNarrowScreen = () => typeof window !== 'undefined' && window.matchMedia(NARROW_SCREEN_QUERY).matches;

function subscribe(onChange: () => void) {
  const query = window.matchMedia(NARROW_SCREEN_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the screen is phone-sized, following it as it changes (read at once on the first render).
 * The server cannot know the screen: it renders a client's page (decision 021) for a phone, where
 * clients mostly open their links, and the browser's first render of that page (its hydration)
 * starts from the same answer, then React renders again with the screen's own.
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, isNarrowScreen, () => true);
}
