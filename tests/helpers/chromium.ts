import fs from 'node:fs';

/**
 * Debian's Chromium, the whole browser: what the Lighthouse runs and the bench measure, as a visitor's
 * browser draws the pages.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What the test suites drive: Debian's build of the same Chromium without its windowing layer
 * (`chromium-headless-shell`, the browser Playwright itself runs headless tests in) when it is installed,
 * else the whole browser. Same version, same Blink and V8; a fifth to a quarter less CPU per browser
 * test on two cores (decision 049). `CHROMIUM_PATH` picks one by hand.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
export const testChromiumPath =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');

/** Started without sandbox, GPU or any background network traffic. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
