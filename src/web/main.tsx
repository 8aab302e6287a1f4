import './app/public-styles.css';
import './app/global.css';
import { makeZodJitless } from './lib/zod-jitless';

// zod is told not to compile validators before the app's modules build any schema (lib/zod-jitless.ts).
makeZodJitless();
// The public pages arrive rendered by the server: let the browser paint them first, then load and
// run the app, which takes them over (the app's chunks are already downloading: the page preloads them).
requestAnimationFrame(() => setTimeout(() => void import('./app/start')));
