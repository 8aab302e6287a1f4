import { z } from 'zod';
import { depositInput, laborLineInput, materialLineInput } from '#shared/schemas/quotes';

/** An unsent quote (or revision) as the builder keeps it in this browser, one per request and version. */
const storedDraft = z.object({
  clientName: z.string(),
  projectName: z.string(),
  materials: z.array(materialLineInput),
  labor: z.array(laborLineInput),
  validUntil: z.string().optional(),
  deposit: depositInput.nullable().optional(),
  notes: z.string().optional(),
  internalNotes: z.string().optional(),
  poNumber: z.string().optional(),
});
export type StoredDraft = z.output<typeof storedDraft>;

const keyOf = (quoteRequestId: string) => `quote-draft:${quoteRequestId}`;

/** The draft saved for this request, if any (and if it still reads as a draft). */
export function loadDraft(quoteRequestId: string): StoredDraft | undefined {
  try {
    const text = localStorage.getItem(keyOf(quoteRequestId));
    if (!text) return undefined;
    const parsed = storedDraft.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function saveDraft(quoteRequestId: string, draft: StoredDraft): void {
  try {
    localStorage.setItem(keyOf(quoteRequestId), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the draft lives as long as the page.
  }
}

export function forgetDraft(quoteRequestId: string): void {
  try {
    localStorage.removeItem(keyOf(quoteRequestId));
  } catch {
    // Nothing to forget.
  }
}
