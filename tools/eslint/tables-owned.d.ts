import type { Rule } from 'eslint';

export declare const tablesOwned: Rule.RuleModule;
