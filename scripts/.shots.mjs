import { chromium } from '@playwright/test';
const base = process.argv[2];
const pages = process.argv.slice(3);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const login = await (await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'owner', password: 'owner-pass-123' }) })).json();
for (const width of [375, 1280]) {
  const ctx = await browser.newContext({ viewport: { width, height: 800 } });
  await ctx.addInitScript((t) => localStorage.setItem('jwt', t), login.token);
  const page = await ctx.newPage();
  page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
  for (const p of pages) {
    await page.goto(base + p);
    await page.waitForTimeout(1200);
    const name = p.replace(/\W+/g, '_') || 'root';
    await page.screenshot({ path: `/tmp/shot-${name}-${width}.png`, fullPage: true });
  }
  await ctx.close();
}
await browser.close();
