// quick screenshots of a running server: node /tmp/shot.mjs URL out.png width [fullPage]
import { chromium } from '@playwright/test';
const [url, out, width, full] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(width) < 500 ? 812 : 800 } });
await page.goto(url);
await page.waitForTimeout(800);
await page.screenshot({ path: out, fullPage: full === 'full' });
console.log('width', await page.evaluate(() => document.documentElement.scrollWidth));
await browser.close();
