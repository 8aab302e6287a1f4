import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { tablesOwned } from './tools/eslint/tables-owned.js';

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'node_modules/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}', 'tests/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Work after a commit happens in one place (issue 26.3): a change tells what it asks for with
    // afterCommit (db/client.ts) and the relay and the caches listen; no feature wakes them by hand.
    files: ['src/server/**/*.ts'],
    ignores: [
      'src/server/mail/**',
      'src/server/webhooks/relay.ts',
      'src/server/texts/relay.ts',
      'src/server/lib/polling-loop.ts',
      'src/server/app.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='kick']",
          message: 'Queue mail with enqueueMail: the relay is woken after the commit (afterCommit).',
        },
        {
          selector: "CallExpression[callee.property.name='forget'][callee.object.property.name='quoteStatus']",
          message: "A request's status change tells the cache after the commit (REQUEST_STATUS_CHANGED).",
        },
      ],
    },
  },
  {
    // Each table is written by the feature that declares it in its tables.ts (issue 26.5).
    files: ['src/server/**/*.ts'],
    plugins: { local: { rules: { 'tables-owned': tablesOwned } } },
    rules: { 'local/tables-owned': 'error' },
  },
  {
    // src/shared is imported as #shared/… (package.json "imports"), never by a deep relative path.
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/shared/*', '!#shared/*'], message: 'Import src/shared as #shared/… (package.json imports).' },
          ],
        },
      ],
    },
  },
);
