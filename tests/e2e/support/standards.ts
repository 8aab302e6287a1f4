import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pa11y from 'pa11y';
import puppeteer from 'puppeteer';
import { chromiumArgs, testChromiumPath } from '../../helpers/chromium';

const vnuJar: string = createRequire(import.meta.url)('vnu-jar');

export interface HtmlProblem {
  page: string;
  message: string;
  extract?: string;
}

/**
 * The W3C Nu HTML Checker (vnu.jar, on the machine's Java) over several documents in one run: every
 * error, named by the document it is in.
 */
export async function nuHtmlErrors(documents: { name: string; html: string }[]): Promise<HtmlProblem[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vnu-'));
  try {
    const files = documents.map((d, i) => {
      const file = path.join(dir, `${i}.html`);
      fs.writeFileSync(file, d.html);
      return file;
    });
    const { stderr } = await promisify(execFile)(
      'java',
      [
        '-jar',
        vnuJar,
        '--errors-only',
        '--format',
        'json',
        '--exit-zero-always',
        // Two of the checker's messages are not the HTML standard's. It checks the CSS a public page
        // carries for its first paint (decision 038) with a validator that predates cascade layers
        // (`@layer`, in every browser since 2022), which all of Mantine's rules are in; it never saw
        // those rules while they were only in stylesheets. And the standard lets `<link rel="expect"
        // blocking="render">` hold the first paint until the page's content is parsed (Chromium since
        // 124); the checker still takes `blocking` for a stylesheet's attribute only.
        '--filterpattern',
        '(CSS: .*)|(A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”\\.)',
        ...files,
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const { messages } = JSON.parse(stderr) as { messages: { url: string; message: string; extract?: string }[] };
    return messages.map((m) => ({
      page: documents[Number(path.basename(m.url).replace('.html', ''))]?.name ?? m.url,
      message: m.message,
      extract: m.extract,
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * pa11y with HTML_CodeSniffer (WCAG 2 AA) on each address, in Debian's Chromium: every error found. One
 * browser for all the addresses (pa11y alone starts one per address), two pages at a time.
 */
export async function pa11yErrors(urls: string[], viewport: { width: number; height: number }): Promise<HtmlProblem[]> {
  const browser = await puppeteer.launch({ executablePath: testChromiumPath, args: chromiumArgs });
  const problems: HtmlProblem[][] = [];
  try {
    const queue = urls.map((url, index) => ({ url, index }));
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const result = await pa11y(next.url, {
          browser,
          standard: 'WCAG2AA',
          runners: ['htmlcs'],
          viewport,
          timeout: 30_000,
        });
        problems[next.index] = result.issues
          .filter((issue) => issue.type === 'error')
          .map((issue) => ({
            page: new URL(next!.url).pathname,
            message: `${issue.code}: ${issue.message}`,
            extract: issue.context,
          }));
      }
    };
    await Promise.all([worker(), worker()]);
  } finally {
    await browser.close();
  }
  return problems.flat();
}
