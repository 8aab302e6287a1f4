// Feature boundaries, checked by `npm run check` (decision 010). Print the feature graph with
// `npm run graph`.
const serverFeatures =
  '(activity|audit|auth|backups|documents|exports|clients|contact|dashboard|figures|health|invoices|job-records|jobs|mail|payments|price-book|quote-requests|quotes|reports|settings|site|system|users|texts|visits|webhooks)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, inside a feature or across features.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'server-feature-through-its-entry',
      comment: "A server feature uses another only through that feature's public entry (its index.ts).",
      severity: 'error',
      from: { path: `^src/server/${serverFeatures}/`, pathNot: '/tables\\.ts$' },
      to: { path: `^src/server/${serverFeatures}/(?!index\\.ts$)`, pathNot: '^src/server/$1/' },
    },
    {
      name: 'tables-reference-tables',
      comment:
        "A feature's tables.ts declares its own tables; it may reference another feature's tables (a foreign key) and nothing else of it.",
      severity: 'error',
      from: { path: `^src/server/${serverFeatures}/tables\\.ts$` },
      to: { path: `^src/server/${serverFeatures}/(?!tables\\.ts$)`, pathNot: '^src/server/$1/' },
    },
    {
      name: 'server-platform-below-features',
      comment: 'db, lib and plugins serve every feature and know none of them.',
      severity: 'error',
      from: { path: '^src/server/(db|lib|plugins)/', pathNot: '^src/server/db/schema\\.ts$' },
      to: { path: `^src/server/${serverFeatures}/` },
    },
    {
      name: 'schema-lists-tables',
      comment: "db/schema.ts gathers every feature's tables.ts (for drizzle-kit and relational queries), nothing else.",
      severity: 'error',
      from: { path: '^src/server/db/schema\\.ts$' },
      to: { path: `^src/server/${serverFeatures}/(?!tables\\.ts$)` },
    },
    {
      name: 'web-features-independent',
      comment: 'A web feature never imports another: app/ composes them.',
      severity: 'error',
      from: { path: '^src/web/features/([^/]+)/' },
      to: { path: '^src/web/features/', pathNot: '^src/web/features/$1/' },
    },
    {
      name: 'web-shared-below-features',
      comment: 'components/ and lib/ serve every feature and know none of them.',
      severity: 'error',
      from: { path: '^src/web/(components|lib)/' },
      to: { path: '^src/web/(features|app)/' },
    },
    {
      name: 'shared-stands-alone',
      comment: 'src/shared is read by the server and the web, and reads neither.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(server|web)/' },
    },
    {
      name: 'web-not-server',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.(css|svg|webp|png)$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
