import { defineConfig } from '@playwright/test';
import { chromiumArgs, testChromiumPath } from './tests/helpers/chromium';

const phone = { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: false };
const desktop = { viewport: { width: 1280, height: 800 } };
/** Tests tagged so in tests/e2e (SHARED_STATE in support/fixtures.ts): they change or count what all share. */
const sharedState = /@shared-state/;
/** The test tagged DEPLOY: it changes the built files every server sends. */
const deploy = /@deploy/;
/** Every test but those. */
const ownData = /@shared-state|@deploy/;

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/support/global-setup.ts',
  // Every test on data of its own, so two run at once against the first server; the tests that change
  // or count what every test shares run one at a time against a server of their own per device, beside
  // the others (decision 027). The three servers are started by the global setup.
  fullyParallel: true,
  // Three: a browser test waits (for the network, a mail, a timer, an animation) part of its time, and a
  // third worker fills those waits on a 2-core host: 628 s → 517 s for the whole suite (decision 027,
  // session 22). `E2E_WORKERS=1` for one.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  // A test's time limit catches a hang, not slowness (speed is `npm run bench`'s, and the suite's wall
  // time is reported each session). Session 24's host ran the suites 2.2 times slower than session 23's,
  // so the limits were doubled to 60 s; session 31's fresh-clone run took 50–66 s for three tests without
  // a limit of their own (Settings, webhooks, team roles) and two of them ran out on the desktop's shared
  // server, half-way through their work (decision 027, session 31). 120 s: twice the slowest seen.
  timeout: 120_000,
  // What the screen is waited for: 20 s. Session 31's host (load average 11 on two cores) drew a page's
  // first heading after more than 10 s three times in one run, each after a passing start (decision 027).
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results',
  use: {
    // Set by the global setup, which starts the built app on a free port (three times: see the projects).
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: { executablePath: testChromiumPath, args: chromiumArgs },
    // The browser asks for reduced motion, which the app honours (theme.ts): a dialog opens and closes
    // at once. Clicked while it still slid in, a dialog's button was missed on a loaded host (Delete in
    // Confirm Deletion), and a page's button was covered by a closing dialog's overlay (decision 027,
    // session 48).
    reducedMotion: 'reduce',
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    // First in the list, so the workers start them at once (each one test at a time, on its own server)
    // and take the rest between them: Playwright hands out work in the order of the projects. Neither
    // depends on another project: a project with dependencies waits for them to finish, and the desktop
    // one, after the phone one, ran alone at the end with the other core idle.
    {
      name: 'phone-shared-state',
      use: { ...phone, baseURL: process.env.E2E_SHARED_BASE_URL },
      metadata: { device: 'phone' },
      grep: sharedState,
      workers: 1,
    },
    {
      name: 'desktop-shared-state',
      use: { ...desktop, baseURL: process.env.E2E_SHARED_DESKTOP_BASE_URL },
      metadata: { device: 'desktop' },
      grep: sharedState,
      workers: 1,
    },
    { name: 'phone', use: phone, metadata: { device: 'phone' }, grepInvert: ownData },
    { name: 'desktop', use: desktop, metadata: { device: 'desktop' }, grepInvert: ownData },
    {
      name: 'deploy',
      use: phone,
      metadata: { device: 'phone' },
      grep: deploy,
      workers: 1,
      dependencies: ['phone', 'desktop', 'phone-shared-state', 'desktop-shared-state'],
    },
  ],
});
