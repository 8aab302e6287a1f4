import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './tests/helpers/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/support/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results',
  use: {
    // Set by the global setup, which starts the built app on a free port.
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'phone', use: { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: false } },
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
  ],
});
