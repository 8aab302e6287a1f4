// pa11y ships no types: the part of its API the suite uses (https://github.com/pa11y/pa11y#javascript-interface).
declare module 'pa11y' {
  import type { Browser } from 'puppeteer';

  interface Pa11yIssue {
    code: string;
    type: 'error' | 'warning' | 'notice';
    message: string;
    context: string;
    selector: string;
  }
  interface Pa11yOptions {
    chromeLaunchConfig?: { executablePath?: string; args?: string[] };
    /** A browser already started (puppeteer's), kept open after the run. */
    browser?: Browser;
    standard?: 'WCAG2A' | 'WCAG2AA' | 'WCAG2AAA';
    runners?: string[];
    viewport?: { width: number; height: number };
    timeout?: number;
  }
  export default function pa11y(url: string, options?: Pa11yOptions): Promise<{ issues: Pa11yIssue[] }>;
}
