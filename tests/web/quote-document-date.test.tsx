// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { QuoteDocument } from '../../src/web/features/quotes/components/quote-document';
import { provideSiteConfig, siteConfig } from '../../src/web/lib/site-config';
import { renderInApp } from './support/render';

afterEach(cleanup);

describe("a quote's date on the client's page", () => {
  it('is the day on the business’s calendar: a quote sent at 10:08 PM in Sacramento is dated that day', async () => {
    provideSiteConfig({ ...siteConfig(), timeZone: 'America/Los_Angeles' });
    renderInApp(
      <QuoteDocument
        business={{ name: 'Sac Handyman Services', email: 'hello@handyman.test', phone: '(916) 555-0142' }}
        quoteId="QT12345678"
        clientName="Ana Garcia"
        projectName="Deck repair"
        // 06:08 on December 1 in UTC, which the server's clock and a reader abroad would print.
        date="2026-12-01T06:08:00.000Z"
        materials={[]}
        labor={[]}
        totalCostBeforeTax={0}
        taxableBeforeTax={0}
        taxCost={0}
        totalCostAfterTax={0}
        taxRateBasisPoints={800}
      />,
    );
    expect(await screen.findByText('Nov 30, 2026')).toBeTruthy();
    expect(screen.queryByText('Dec 1, 2026')).toBeNull();
  });
});
