/**
 * The hero's cross-fade, without React: the home page runs it as the server sent it (the app does not
 * take that page over, decision 050), and the Hero component runs the same when the app draws the home
 * page after a move inside the app. No import of React or of the app's modules may come in here.
 */
import { HERO_FADE_MS, HERO_INTERVAL_MS } from '#shared/constants';

/** The `srcset` of one hero photo (its three widths). */
export const heroSrcSet = (base: string) => [640, 1280, 1920].map((w) => `${base}-${w}.webp ${w}w`).join(', ');

/**
 * Given the hero's section, whose `data-slides` names every photo (the first, already in it, included),
 * adds the hero's other photos behind the first (the page arrives with the first only: the others,
 * stacked under it and never "off-screen" for lazy loading, would share a phone's first seconds of
 * network with it, issue 34) and shows each in turn, every HERO_INTERVAL_MS. Returns what undoes it.
 */
export function startHeroSlides(section: HTMLElement): () => void {
  const first = section.querySelector('img');
  const bases = (section.dataset.slides ?? '').split(' ').filter(Boolean);
  if (!first || bases.length < 2) return () => {};
  const added = bases.slice(1).map((base) => {
    const img = first.cloneNode() as HTMLImageElement;
    img.removeAttribute('data-active');
    img.loading = 'lazy';
    img.fetchPriority = 'low';
    img.srcset = heroSrcSet(base);
    img.src = `${base}-1280.webp`;
    return img;
  });
  // After the first, in order: the photos are stacked, so the shade and the words stay above them.
  first.after(...added);
  const slides = [first, ...added];
  let active = 0;
  const timer = setInterval(() => {
    slides[active]!.removeAttribute('data-active');
    active = (active + 1) % slides.length;
    slides[active]!.setAttribute('data-active', '');
  }, HERO_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    for (const img of added) img.remove();
    first.setAttribute('data-active', '');
  };
}

/** The fade's length, written on each photo (the stylesheet gives it no default). */
export const heroFade = `${HERO_FADE_MS}ms`;
