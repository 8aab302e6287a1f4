import './app/public-styles.css';
import './app/global.css';

// The public pages arrive rendered by the server: let the browser paint them first, then load and
// run the app, which takes them over (the app's chunks are already downloading: the page preloads them).
// zod is told not to compile validators (lib/zod-jitless.ts) before the app's modules build any schema:
// the bundler does not keep the order of a chunk's imports, so it is its own step.
requestAnimationFrame(() => setTimeout(() => void import('./lib/zod-jitless').then(() => import('./app/start'))));
