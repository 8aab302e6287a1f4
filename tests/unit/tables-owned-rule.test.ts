import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { tablesOwned } from '../../tools/eslint/tables-owned.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });
const inQuotes = '/repo/src/server/quotes/service.ts';

// A feature writes only the tables of its own tables.ts (issue 26.5): `npm run check` runs this rule.
tester.run('tables-owned', tablesOwned, {
  valid: [
    { filename: inQuotes, code: "import { quotes } from './tables'; tx.insert(quotes).values({});" },
    { filename: inQuotes, code: "import { quotes } from './tables'; tx.update(quotes).set({});" },
    {
      filename: '/repo/src/server/quotes/pdf/draw.ts',
      code: "import { quotes } from '../tables'; tx.delete(quotes);",
    },
    // Reading another feature's table is allowed.
    { filename: inQuotes, code: "import { jobs } from '../db/schema'; tx.select().from(jobs);" },
    // A Map's delete, a hash's update: not tables.
    { filename: inQuotes, code: 'const cache = new Map(); cache.delete(key); hash.update(bytes);' },
    { filename: inQuotes, code: "import { quotes } from './tables'; sql`insert into ${quotes} (id) values (1)`;" },
    // Outside the features (tests, scripts) the rule does not apply.
    {
      filename: '/repo/tests/api/x.test.ts',
      code: "import { jobs } from '../../src/server/db/schema'; db.insert(jobs);",
    },
  ],
  invalid: [
    {
      filename: inQuotes,
      code: "import { jobs } from '../db/schema'; tx.insert(jobs).values({});",
      errors: [{ messageId: 'foreign' }],
    },
    {
      filename: inQuotes,
      code: "import { jobs } from '../jobs/tables'; tx.update(jobs).set({});",
      errors: [{ messageId: 'foreign' }],
    },
    {
      filename: inQuotes,
      code: "import { mailOutbox } from '../db/schema'; tx.delete(mailOutbox);",
      errors: [{ messageId: 'foreign' }],
    },
    {
      filename: inQuotes,
      code: "import { jobs } from '../db/schema'; sql`update ${jobs} set status = 'Completed'`;",
      errors: [{ messageId: 'foreign' }],
    },
    {
      filename: inQuotes,
      code: "import { quotes } from '../db/schema'; tx.insert(quotes);",
      errors: [{ messageId: 'foreign' }],
    },
  ],
});
