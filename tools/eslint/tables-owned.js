import path from 'node:path';

/**
 * A feature writes only its own tables (issue 26.5, decision 010): in src/server/<feature>/, an
 * insert, update or delete (the query builder's, or raw `insert into ${table}` SQL) names a table
 * imported from that feature's own tables.ts. Other features' tables may be read (through
 * db/schema), and are changed by asking their feature.
 */
const WRITES = new Set(['insert', 'update', 'delete']);
const RAW_WRITE = /(insert\s+into|update|delete\s+from)\s*$/i;

/** @type {import('eslint').Rule.RuleModule} */
export const tablesOwned = {
  meta: {
    type: 'problem',
    docs: { description: 'A server feature writes only the tables declared in its own tables.ts.' },
    schema: [],
    messages: {
      foreign:
        "'{{table}}' belongs to another feature ({{source}}): {{feature}} writes only its own tables (./tables); ask the owning feature through its index.ts.",
    },
  },
  create(context) {
    const file = context.filename;
    const match = /src[\\/]server[\\/]([^\\/]+)[\\/]/.exec(file);
    if (!match) return {};
    const feature = match[1];
    const serverRoot = file.slice(0, match.index + 'src/server/'.length);
    const ownTables = path.join(serverRoot, feature, 'tables');

    /** The module an identifier was imported from, if it was imported. */
    function importedFrom(node) {
      let scope = context.sourceCode.getScope(node);
      while (scope) {
        const variable = scope.set.get(node.name);
        if (variable) {
          const def = variable.defs[0];
          return def && def.type === 'ImportBinding' ? def.parent.source.value : undefined;
        }
        scope = scope.upper;
      }
      return undefined;
    }

    function check(node) {
      if (node.type !== 'Identifier') return;
      const source = importedFrom(node);
      if (typeof source !== 'string' || !/(^|\/)(tables|schema)$/.test(source)) return;
      if (path.resolve(path.dirname(file), source) === ownTables) return;
      context.report({ node, messageId: 'foreign', data: { table: node.name, source, feature } });
    }

    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        if (!WRITES.has(callee.property.name) || node.arguments.length !== 1) return;
        check(node.arguments[0]);
      },
      TaggedTemplateExpression(node) {
        if (node.tag.type !== 'Identifier' || node.tag.name !== 'sql') return;
        node.quasi.expressions.forEach((expression, i) => {
          if (RAW_WRITE.test(node.quasi.quasis[i].value.cooked ?? '')) check(expression);
        });
      },
    };
  },
};
