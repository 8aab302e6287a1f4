import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { NARROW_BREAKPOINT_PX } from '#shared/constants';
import { theme } from '../../src/web/app/theme';

const postcssConfig = createRequire(import.meta.url)('../../postcss.config.cjs') as {
  plugins: Record<string, { variables?: Record<string, string> }>;
};

describe('the narrow-screen breakpoint', () => {
  it("is Mantine's sm breakpoint, in the theme and in the CSS modules' variables", () => {
    const em = `${NARROW_BREAKPOINT_PX / 16}em`;
    expect(theme.breakpoints?.sm).toBe(em);
    expect(postcssConfig.plugins['postcss-simple-vars']?.variables?.['mantine-breakpoint-sm']).toBe(em);
  });
});
