import { useMediaQuery } from '@mantine/hooks';
import { NARROW_BREAKPOINT_PX } from '../../shared/constants';

/** A phone-sized screen: narrower than NARROW_BREAKPOINT_PX (Mantine's "sm"). */
export const NARROW_SCREEN_QUERY = `(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`;

/** Whether the screen is phone-sized now (for code outside React). */
export const isNarrowScreen = () => typeof window !== 'undefined' && window.matchMedia(NARROW_SCREEN_QUERY).matches;

/** Whether the screen is phone-sized, following it as it changes (read at once on the first render). */
export function useNarrowScreen(): boolean {
  return useMediaQuery(NARROW_SCREEN_QUERY, false, { getInitialValueInEffect: false });
}
