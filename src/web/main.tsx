import './app/public-styles.css';
import './app/global.css';
import { FIRST_USE_EVENTS, FIRST_USE_MARK } from '#shared/first-use';
import { makeZodJitless } from './lib/zod-jitless';

// zod is told not to compile validators before the app's modules build any schema (lib/zod-jitless.ts).
makeZodJitless();

/** A list of files the server wrote into the page (site/page-head.ts, site/critical-css.ts). */
function listed(id: string): string[] {
  try {
    const files: unknown = JSON.parse(document.getElementById(id)?.textContent ?? '[]');
    return Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string') : [];
  } catch {
    return [];
  }
}

function link(rel: string, href: string, as?: string) {
  const element = document.createElement('link');
  element.rel = rel;
  if (as) element.as = as;
  element.crossOrigin = '';
  // After what the page shows (its photos above all): nothing of the app is needed for it.
  element.fetchPriority = 'low';
  element.href = href;
  document.head.append(element);
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/** Asks for the app's chunks: every one at once, not one level of imports after another, a few per task. */
async function fetchChunks() {
  const files = listed('app-chunks');
  for (let i = 0; i < files.length; i += 6) {
    for (const file of files.slice(i, i + 6)) link('modulepreload', `/${file}`);
    await nextTask();
  }
}

/** Runs the app: React's DOM renderer, the largest module, in a task of its own, and the rest in the next. */
async function runApp() {
  await import('react-dom/client');
  await nextTask();
  await import('./app/start');
}

/**
 * Calls `then` once, on the first of FIRST_USE_EVENTS, or at once if the visitor already has: reached
 * for the page before this script was asked for (the page's loader marked it, FIRST_USE_MARK), a field
 * focused, the page scrolled.
 */
function onFirstUse(then: () => void) {
  const active = document.activeElement;
  const reached = document.documentElement.hasAttribute(FIRST_USE_MARK);
  if (reached || (active && active !== document.body) || window.scrollY > 0) return then();
  const options = { capture: true, passive: true } as const;
  const once = () => {
    for (const type of FIRST_USE_EVENTS) window.removeEventListener(type, once, options);
    then();
  };
  for (const type of FIRST_USE_EVENTS) window.addEventListener(type, once, options);
}

// The public pages arrive rendered by the server: let the browser paint them first, then load and run
// the app, which takes them over (issue 34). A public page carries the rules of its first paint and
// names its stylesheets, for what only the app renders (a menu, a notice; site/critical-css.ts).
// Every chunk is asked for at once, a few per task: asking for the app's 46 files in one go (Vite's
// loader did) held a phone's main thread for about 50 ms after the first paint.
requestAnimationFrame(() =>
  setTimeout(async () => {
    const rendered = document.getElementById('root')?.firstElementChild;
    const app = document.querySelector<HTMLMetaElement>('meta[name="app"]')?.content;
    if (rendered && app === 'none') {
      // A page whole as the server sent it (PageMeta.withoutApp, decision 050): the app does not take
      // it over, so nothing more is drawn than the rules in the page already style, and only its
      // hero's photos turn. (One the server could not render is drawn by the app, as any page is.)
      const hero = document.querySelector<HTMLElement>('section[data-slides]');
      if (hero) (await import('./features/home/components/hero-slides')).startHeroSlides(hero);
      return;
    }
    if (rendered && app === 'on-first-use') {
      // A form whose fields work as the browser's own (PageMeta.appOnFirstUse, decision 051): its
      // files are fetched now, while the visitor reads, and the app runs (its stylesheets, then its
      // code, which takes the page over) when they first reach for it, not on a main thread that is
      // still painting and laying out the page.
      const styles = listed('app-styles');
      onFirstUse(() => {
        for (const href of styles) link('stylesheet', href);
        void runApp();
      });
      // Fetched for later (`prefetch`), not `preload`ed: Chromium warns in the console of a visitor who
      // reads for more than a few seconds that a preloaded stylesheet was not used.
      for (const href of styles) link('prefetch', href);
      await fetchChunks();
      return;
    }
    for (const href of listed('app-styles')) link('stylesheet', href);
    await fetchChunks();
    await runApp();
  }),
);
