import './app/public-styles.css';
import './app/global.css';
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

function link(rel: string, href: string) {
  const element = document.createElement('link');
  element.rel = rel;
  element.crossOrigin = '';
  // After what the page shows (its photos above all): nothing of the app is needed for it.
  element.fetchPriority = 'low';
  element.href = href;
  document.head.append(element);
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

// The public pages arrive rendered by the server: let the browser paint them first, then load and run
// the app, which takes them over (issue 34). A public page carries the rules of its first paint and
// names its stylesheets, asked for now, ahead of the app, for what only the app renders (a menu, a
// notice; site/critical-css.ts). Every chunk is then asked for at once, not one level of imports after
// another (seven to nine round trips), but a few per task: asking for the app's 46 files in one go
// (Vite's loader did) held a phone's main thread for about 50 ms after the first paint. React's DOM
// renderer, the largest module, then runs in a task of its own, and the rest of the app in the next.
requestAnimationFrame(() =>
  setTimeout(async () => {
    const rendered = document.getElementById('root')?.firstElementChild;
    if (rendered && document.querySelector('meta[name="app"][content="none"]')) {
      // A page whole as the server sent it (PageMeta.withoutApp, decision 050): the app does not take
      // it over, so nothing more is drawn than the rules in the page already style, and only its
      // hero's photos turn. (One the server could not render is drawn by the app, as any page is.)
      const hero = document.querySelector<HTMLElement>('section[data-slides]');
      if (hero) (await import('./features/home/components/hero-slides')).startHeroSlides(hero);
      return;
    }
    for (const href of listed('app-styles')) link('stylesheet', href);
    const files = listed('app-chunks');
    for (let i = 0; i < files.length; i += 6) {
      for (const file of files.slice(i, i + 6)) link('modulepreload', `/${file}`);
      await nextTask();
    }
    await import('react-dom/client');
    await nextTask();
    await import('./app/start');
  }),
);
