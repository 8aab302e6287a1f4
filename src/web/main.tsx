import './app/public-styles.css';
import './app/global.css';
import { makeZodJitless } from './lib/zod-jitless';

// zod is told not to compile validators before the app's modules build any schema (lib/zod-jitless.ts).
makeZodJitless();

/** The app's and this page's chunks, as the server lists them (site/page-head.ts). */
function appChunks(): string[] {
  try {
    const listed: unknown = JSON.parse(document.getElementById('app-chunks')?.textContent ?? '[]');
    return Array.isArray(listed) ? listed.filter((file): file is string => typeof file === 'string') : [];
  } catch {
    return [];
  }
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

// The public pages arrive rendered by the server: let the browser paint them first, then load and run
// the app, which takes them over (issue 34). Every chunk is asked for at once, not one level of imports
// after another (seven to nine round trips), but a few per task: asking for the app's 46 files in one
// go (Vite's loader did) held a phone's main thread for about 50 ms after the first paint. React's DOM
// renderer, the largest module, then runs in a task of its own, and the rest of the app in the next.
requestAnimationFrame(() =>
  setTimeout(async () => {
    const files = appChunks();
    for (let i = 0; i < files.length; i += 6) {
      for (const file of files.slice(i, i + 6)) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = `/${file}`;
        document.head.append(link);
      }
      await nextTask();
    }
    await import('react-dom/client');
    await nextTask();
    await import('./app/start');
  }),
);
