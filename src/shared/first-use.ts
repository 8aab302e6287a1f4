/** What a visitor does when they first reach for a page: a touch, a key, the pointer, the focus, a scroll. */
export const FIRST_USE_EVENTS = [
  'pointerdown',
  'pointermove',
  'touchstart',
  'keydown',
  'focusin',
  'scroll',
  'wheel',
] as const;

/**
 * The attribute a public page's entry loader puts on <html> when the visitor first reaches for the page
 * before the app is there: the entry then runs the app at once (main.tsx).
 */
export const FIRST_USE_MARK = 'data-reached';
