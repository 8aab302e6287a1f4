import { describe, expect, it } from 'vitest';
import {
  budgetFailures,
  judgePages,
  staticClosure,
  type ChunkModules,
  type Manifest,
} from '../../scripts/js-budget-rules';

// A build shaped like Vite's: the entry loads the app, the app a shared chunk; the contact page its own.
const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', imports: ['_shared.js'] },
  'app/start.tsx': { file: 'assets/start.js', imports: ['_shared.js', '_react.js'] },
  '_shared.js': { file: 'assets/shared.js' },
  '_react.js': { file: 'assets/react.js' },
  'features/contact/pages/contact-page.tsx': { file: 'assets/contact.js', imports: ['_form.js', '_shared.js'] },
  '_form.js': { file: 'assets/form.js' },
};
const chunks: ChunkModules = {
  'assets/index.js': { modules: { 'main.tsx': 200 } },
  'assets/start.js': { modules: { 'app/start.tsx': 1_000, 'app/router.tsx': 3_000 } },
  'assets/shared.js': { modules: { '../shared/paths.ts': 2_000 } },
  'assets/react.js': { modules: { '../../node_modules/react-dom/client.js': 90_000 } },
  'assets/contact.js': { modules: { 'features/contact/pages/contact-page.tsx': 2_500 } },
  'assets/form.js': { modules: { '../../node_modules/react-hook-form/dist/index.esm.mjs': 40_000 } },
};
const sizes: Record<string, number> = {
  'assets/index.js': 1_000,
  'assets/start.js': 20_000,
  'assets/shared.js': 1_000,
  'assets/react.js': 50_000,
  'assets/contact.js': 2_000,
  'assets/form.js': 15_000,
};
const size = (file: string) => sizes[file]!;
const home = { path: '/', entries: ['index.html', 'app/start.tsx'], maxBytes: 80_000 };
const contact = {
  path: '/contact',
  entries: ['index.html', 'app/start.tsx', 'features/contact/pages/contact-page.tsx'],
  maxBytes: 90_000,
};

describe('the public pages’ JavaScript budget (issue 34)', () => {
  it('counts each file a page loads once, through every static import', () => {
    expect(staticClosure(manifest, contact.entries).sort()).toEqual(
      [
        'index.html',
        'app/start.tsx',
        '_shared.js',
        '_react.js',
        'features/contact/pages/contact-page.tsx',
        '_form.js',
      ].sort(),
    );
    const [h, c] = judgePages([home, contact], manifest, chunks, size);
    expect(h!.bytes).toBe(72_000);
    expect(c!.bytes).toBe(89_000);
    expect(budgetFailures([h!, c!])).toEqual([]);
  });

  it('fails, naming the module, when a page loads code of the back office', () => {
    const leaky: Manifest = {
      ...manifest,
      'features/contact/pages/contact-page.tsx': {
        file: 'assets/contact.js',
        imports: ['_form.js', '_shared.js', '_users.js'],
      },
      '_users.js': { file: 'assets/users.js' },
    };
    const leakyChunks = { ...chunks, 'assets/users.js': { modules: { 'features/users/api/users.ts': 300 } } };
    const verdicts = judgePages([home, contact], leaky, leakyChunks, (f) => (f === 'assets/users.js' ? 200 : size(f)));
    expect(budgetFailures(verdicts)).toEqual([
      "/contact loads code of the staff's or crew's areas: features/users/api/users.ts",
    ]);
  });

  it('fails over budget, naming what grew since it last passed, or else the largest modules', () => {
    const [, passed] = judgePages([home, contact], manifest, chunks, size);
    const grownChunks = {
      ...chunks,
      'assets/contact.js': {
        modules: { 'features/contact/pages/contact-page.tsx': 2_500, 'lib/shrink-photo.ts': 9_000 },
      },
    };
    const [, over] = judgePages([home, contact], manifest, grownChunks, (f) =>
      f === 'assets/contact.js' ? 4_000 : size(f),
    );
    const [failure] = budgetFailures([over!], { '/contact': passed!.modules });
    expect(failure).toContain('/contact loads 88.9 KB of JavaScript gzipped, over its 87.9 KB');
    expect(failure).toContain('grown since the budget last passed: lib/shrink-photo.ts (+8.8 KB)');
    // With nothing to compare with (a fresh clone), the largest modules are named instead.
    expect(budgetFailures([over!])[0]).toContain(
      'its largest modules: ../../node_modules/react-dom/client.js (87.9 KB)',
    );
  });
});
