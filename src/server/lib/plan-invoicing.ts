import type { DbOrTx } from '../db/client';
import type { BusinessSettings } from './business';

/**
 * How repeating visits are invoiced (issue 31, decision 047), given to the visits feature by the app:
 * the invoices feature does it, and it already depends on visits through the crew's records, so visits
 * cannot import it back (no feature cycle).
 */
export interface PlanInvoicing {
  /**
   * A month of a plan or one of its visits, invoiced and sent in `tx`; `sourceKey` names what it bills,
   * and the same key makes nothing a second time. Answers the invoice's id (the earlier one for a key seen).
   */
  issue(
    tx: DbOrTx,
    bill: {
      jobId: string;
      sourceKey: string;
      lines: { description: string; quantity: number; unitPriceCents: number; taxable: boolean }[];
      business: BusinessSettings;
    },
  ): Promise<string>;
}
