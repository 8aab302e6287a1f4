import { createHash } from 'node:crypto';
import Beasties from 'beasties';
import postcss from 'postcss';
import { scriptJson } from './page-head';

const STYLESHEET = /<link rel="stylesheet"[^>]*>/g;
/**
 * How many pages' rules are kept: a handful of public pages, each once per change of the settings, and
 * the shapes of the clients' own pages (a few per page: with a deposit, paid, declined…).
 */
const KEPT = 64;

/**
 * A public page's first paint needs a fifth of the app's CSS (the rules that match what the server
 * rendered: 27 KB of 130 KB, 6 KB gzipped). Those rules go into the page itself, so that a phone paints
 * it from the HTML's first round trips, with nothing else asked for before (issue 34). The page names
 * its stylesheets for the entry to link once it is painted, before it loads the app (main.tsx): what is
 * left for them is what the server did not render (a menu opened, a notice shown), which only the app
 * renders. Without scripts the page looks the same: its rules are all it shows
 * (tests/e2e/server-rendering.spec.ts compares the two pictures).
 *
 * The rules are picked by Beasties from the page's HTML once per page and key (the page's pattern and
 * the settings it was rendered with), never per request: a stranger cannot make the server do it
 * again by asking for the same page under another spelling. A page whose rules cannot be picked is
 * sent as before, its stylesheets in <head>.
 */
export function criticalCss(root: string, onError: (error: unknown) => void) {
  const beasties = new Beasties({
    path: root,
    publicPath: '/',
    logLevel: 'silent',
    pruneSource: false,
    inlineFonts: false,
    preloadFonts: false,
    compress: true,
    // The theme's variables hang off `:root, :host` and `:root[data-mantine-color-scheme=light], :host(…)`,
    // which Beasties does not match (it drops the whole rule for the `:host` half): every colour and
    // size would be missing. The public pages are light (the server says so on <html>): the dark
    // scheme's rules stay out.
    // The focus ring (global.css) has no element of its own to match; a keyboard user needs it on the
    // page the server sent, which the home page's visitor keeps (it loads no more rules, decision 050).
    allowRules: [/^:root(?!\[data-mantine-color-scheme="?dark)/, /^:focus-visible$/],
  });
  const picked = new Map<string, Promise<string | undefined>>();

  const rulesFor = (key: string, html: string) => {
    let rules = picked.get(key);
    if (!rules) {
      if (picked.size >= KEPT) picked.delete(picked.keys().next().value!);
      rules = beasties.process(html).then(
        (processed) =>
          withoutUnusedVariables(
            [...processed.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join(''),
            html,
          ),
        (error: unknown) => {
          onError(error);
          return undefined;
        },
      );
      picked.set(key, rules);
    }
    return rules;
  };

  /** The page with its first paint's rules inline and its stylesheets listed for the app to load. */
  return async (key: string, html: string): Promise<string> => {
    const rules = await rulesFor(key, html);
    const headEnd = html.indexOf('</head>');
    // `<` cannot occur in the rules unescaped (Beasties writes them from parsed CSS), so no value in
    // them can close the element; the check keeps it so.
    if (!rules || headEnd < 0 || /<\/style/i.test(rules)) return html;
    const hrefs = [...html.slice(0, headEnd).matchAll(STYLESHEET)].map((link) => /href="([^"]+)"/.exec(link[0])?.[1]);
    if (!hrefs.length || hrefs.some((href) => !href)) return html;
    let first = true;
    const head = html.slice(0, headEnd).replace(STYLESHEET, () => {
      if (!first) return '';
      first = false;
      // One first paint with the page's whole content: without the hold, Chromium painted the top bar
      // from the first part of the HTML it parsed and the content a frame later.
      return `<link rel="expect" href="#main" blocking="render">\n    <style>${rules}</style>\n    <script type="application/json" id="app-styles">${scriptJson(hrefs)}</script>`;
    });
    return `${head}${html.slice(headEnd)}`;
  };
}

const VARIABLE_USE = /var\(\s*(--[\w-]+)/g;
const START_TAG = /<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTRIBUTE = /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
/** Attributes whose value a stylesheet's selectors test (Mantine's `[data-variant="filled"]`, `[type=…]`). */
const MATCHED_VALUE = /^(data-|role$|type$|dir$|lang$)/;

/**
 * What a page's rules are picked by, for a client's own page (rendered per request with their data): the
 * elements, classes, attributes and variables its HTML uses, not its text or its links. Two clients'
 * quotes of the same shape share the rules picked once; a quote with a deposit or an invoice with a Pay
 * button is another shape (decision 052, session 40).
 */
export function pageShape(html: string): string {
  const parts = new Set<string>();
  for (const [, tag, attributes] of html.matchAll(START_TAG)) {
    parts.add(tag!.toLowerCase());
    for (const [, name, ...values] of attributes!.matchAll(ATTRIBUTE)) {
      const value = values.find((v) => v !== undefined) ?? '';
      if (name === 'class') for (const token of value.split(/\s+/)) parts.add(`.${token}`);
      else if (MATCHED_VALUE.test(name!)) parts.add(`[${name}=${value}]`);
      else parts.add(`[${name}]`);
    }
  }
  for (const [, variable] of html.matchAll(VARIABLE_USE)) parts.add(variable!);
  return createHash('sha256')
    .update([...parts].sort().join('\n'))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * The rules without the custom properties nothing in the page uses. The theme defines about 470 (each
 * colour's ten shades and variants, every size) on `:root`, 24 KB of a form page's 40 KB of rules; the
 * page's rules and its elements' `style` attributes use about half, and those use a few more. Every
 * element inherits all of them, and a phone parses them before its first paint (issue 34). The app's
 * stylesheets, linked once the page is painted, still define them all for what the app draws later.
 */
function withoutUnusedVariables(css: string, html: string): string {
  const sheet = postcss.parse(css);
  const definitions = new Map<string, string[]>();
  const used = new Set<string>();
  const pending: string[] = [];
  const use = (text: string) => {
    for (const [, name] of text.matchAll(VARIABLE_USE))
      if (!used.has(name!)) {
        used.add(name!);
        pending.push(name!);
      }
  };
  sheet.walkDecls((decl) => {
    if (decl.prop.startsWith('--')) definitions.set(decl.prop, [...(definitions.get(decl.prop) ?? []), decl.value]);
    else use(decl.value);
  });
  use(html);
  // A variable used makes the variables its value uses used too.
  while (pending.length > 0) for (const value of definitions.get(pending.pop()!) ?? []) use(value);
  sheet.walkDecls((decl) => {
    if (decl.prop.startsWith('--') && !used.has(decl.prop)) decl.remove();
  });
  sheet.walkRules((rule) => {
    if (rule.nodes.length === 0) rule.remove();
  });
  return sheet.toString();
}
