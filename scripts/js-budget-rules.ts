/**
 * The JavaScript budget of the public pages (issue 34), as pure rules over the build's manifest
 * (.vite/manifest.json) and the chunks' module lists (.vite/chunks.json, written by vite.config.ts),
 * so they can be tested without a build. scripts/js-budget.ts reads the build and prints the verdict.
 */

/** The part of Vite's manifest read here: each chunk's file and the chunks it imports statically. */
export type Manifest = Record<string, { file: string; imports?: string[] }>;
/** Each output file's modules (paths under src/web, or ../../node_modules/…) with their size. */
export type ChunkModules = Record<string, { modules: Record<string, number> }>;

export interface PageBudget {
  /** The page's path, as a visitor types it. */
  path: string;
  /** The manifest keys the page loads before it can be used (the entry, the app, the page's module). */
  entries: string[];
  /** Gzipped bytes allowed. */
  maxBytes: number;
}

export interface PageVerdict {
  path: string;
  bytes: number;
  maxBytes: number;
  files: string[];
  /** Modules of the staff's or crew's areas found in the page's chunks. */
  backOffice: string[];
  /** Every module of the page with its size before minifying. */
  modules: Record<string, number>;
  /** The page's largest modules, largest first: what to look at when it grew. */
  largest: { module: string; bytes: number }[];
}

/**
 * Modules of the back office and the crew app. A public page that loads one pays for code its
 * visitors never run (and shows the staff's screens to anyone who reads the bundle).
 */
const BACK_OFFICE = [
  /^crew-app\//,
  /^app\/layouts\/staff-layout/,
  /^app\/pages\/(employee-home|job|quote-request)-page/,
  /^features\/(audit|activity|clients|dashboard|employee|jobs|job-records|reports|settings|users|visits|your-data)\//,
  /^features\/quote-requests\/pages\/(admin-list|new-request)-page/,
  /^features\/invoices\/pages\/invoices?-page/,
  /^features\/quotes\/components\/quote-builder/,
];

export const isBackOffice = (module: string) => BACK_OFFICE.some((pattern) => pattern.test(module));

/** Every manifest key `entries` load statically, themselves included. */
export function staticClosure(manifest: Manifest, entries: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const entry of entries) visit(entry);
  return [...seen];
}

/** Each page's gzipped size against its budget, the back-office modules in it, and its largest modules. */
export function judgePages(
  pages: PageBudget[],
  manifest: Manifest,
  chunks: ChunkModules,
  gzippedSize: (file: string) => number,
): PageVerdict[] {
  return pages.map((page) => {
    const files = staticClosure(manifest, page.entries).map((key) => manifest[key]!.file);
    const modules = new Map<string, number>();
    for (const file of files)
      for (const [module, bytes] of Object.entries(chunks[file]?.modules ?? {}))
        modules.set(module, (modules.get(module) ?? 0) + bytes);
    return {
      path: page.path,
      bytes: files.reduce((sum, file) => sum + gzippedSize(file), 0),
      maxBytes: page.maxBytes,
      files,
      backOffice: [...modules.keys()].filter(isBackOffice).sort(),
      modules: Object.fromEntries(modules),
      largest: [...modules.entries()]
        .map(([module, bytes]) => ({ module, bytes }))
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 8),
    };
  });
}

/** The modules that grew most since `before` (new ones included), largest growth first. */
export function grownModules(before: Record<string, number>, now: Record<string, number>, count = 5) {
  return Object.entries(now)
    .map(([module, bytes]) => ({ module, grew: bytes - (before[module] ?? 0) }))
    .filter((m) => m.grew > 0)
    .sort((a, b) => b.grew - a.grew)
    .slice(0, count);
}

/**
 * What failed, in words a person can act on; empty when every page is within its budget. `lastPassed`:
 * each page's modules when the budget last passed on this machine, to name what grew since.
 */
export function budgetFailures(
  verdicts: PageVerdict[],
  lastPassed: Record<string, Record<string, number>> = {},
): string[] {
  const failures: string[] = [];
  for (const v of verdicts) {
    if (v.backOffice.length > 0)
      failures.push(`${v.path} loads code of the staff's or crew's areas: ${v.backOffice.join(', ')}`);
    if (v.bytes <= v.maxBytes) continue;
    const before = lastPassed[v.path];
    const grown = before ? grownModules(before, v.modules) : [];
    failures.push(
      `${v.path} loads ${kb(v.bytes)} of JavaScript gzipped, over its ${kb(v.maxBytes)}; ` +
        (grown.length > 0
          ? `grown since the budget last passed: ${grown.map((m) => `${m.module} (+${kb(m.grew)})`).join(', ')}`
          : `its largest modules: ${v.largest.map((m) => `${m.module} (${kb(m.bytes)})`).join(', ')}`) +
        ' (sizes before minifying)',
    );
  }
  return failures;
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
