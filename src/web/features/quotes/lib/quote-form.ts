import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import type { z } from 'zod';
import { addDays, todayIn } from '#shared/dates';
import { createQuoteInput, type QuoteView } from '#shared/schemas/quotes';
import type { QuoteRequestDetail } from '#shared/schemas/staff-quote-requests';
import { siteConfig } from '../../../lib/site-config';
import { forgetDraft, loadDraft, saveDraft } from './draft-store';

/** The builder's form: the body POST /api/quotes/createNew takes, validated by the route's own schema. */
export type QuoteFormInput = z.input<typeof createQuoteInput>;
export type QuoteFormOutput = z.output<typeof createQuoteInput>;
export type QuoteFormControl = Control<QuoteFormInput, unknown, QuoteFormOutput>;

/** A first guess at the project's name: the first line of the client's description. */
export function projectNameFrom(notes: string) {
  const first = notes.split(/\r?\n|(?<=\.)\s/)[0]?.trim() ?? '';
  return first.length > 60 ? `${first.slice(0, 57).trimEnd()}…` : first.replace(/\.$/, '');
}

/** The key the unsent work is kept under in this browser: one per request, and per version being written. */
export const draftKeyOf = (request: QuoteRequestDetail, revising?: QuoteView) =>
  revising ? `${request._id}:v${revising.version + 1}` : request._id;

/** Where the builder starts: the draft kept in this browser, else the quote being revised, else the request. */
function startingValues(request: QuoteRequestDetail, revising: QuoteView | undefined): QuoteFormInput {
  const { materialsTaxable, laborTaxable, timeZone, quoteValidityDays } = siteConfig();
  const saved = loadDraft(draftKeyOf(request, revising));
  const materials =
    saved?.materials ??
    revising?.materials.map(({ name, unitPrice, quantity, optional, taxable }) => ({
      name,
      unitPrice,
      quantity,
      optional,
      taxable,
    })) ??
    [];
  const labor =
    saved?.labor ??
    revising?.labor.map(({ description, hourlyRate, hours, flat, optional, taxable }) => ({
      description,
      hourlyRate,
      hours,
      flat,
      optional,
      taxable,
    })) ??
    [];
  const deposit = saved?.deposit ?? revising?.deposit;
  return {
    quoteRequestId: request._id,
    clientName: saved?.clientName ?? revising?.clientName ?? request.contactPerson.name,
    projectName: saved?.projectName ?? revising?.projectName ?? projectNameFrom(request.notes),
    // Lines saved in this browser before lines said whether they are taxed get the Settings' defaults.
    materials: materials.map((m) => ({ ...m, taxable: m.taxable ?? materialsTaxable })),
    labor: labor.map((l) => ({ ...l, taxable: l.taxable ?? laborTaxable })),
    validUntil: saved?.validUntil ?? addDays(todayIn(timeZone), quoteValidityDays),
    deposit: deposit ? { kind: deposit.kind, value: deposit.value } : null,
    notes: saved?.notes ?? revising?.notes ?? '',
    internalNotes: saved?.internalNotes ?? revising?.internalNotes ?? '',
    poNumber: saved?.poNumber ?? revising?.poNumber ?? '',
  };
}

/** The builder's form, started from the kept draft, the revised quote or the request. */
export function useQuoteForm(request: QuoteRequestDetail, revising: QuoteView | undefined) {
  const [defaultValues] = useState(() => startingValues(request, revising));
  return useForm<QuoteFormInput, unknown, QuoteFormOutput>({ resolver: zodResolver(createQuoteInput), defaultValues });
}

/**
 * The work so far is kept in this browser until the quote is sent: a reload, a wrong click or an ended
 * session does not throw it away. A quote without lines keeps nothing.
 */
export function useDraftAutosave(control: QuoteFormControl, draftKey: string, sent: boolean) {
  const values = useWatch({ control }) as QuoteFormInput;
  useEffect(() => {
    if (sent) return;
    const { clientName, projectName, materials, labor, validUntil, deposit, notes, internalNotes, poNumber } = values;
    if (materials.length + labor.length === 0) forgetDraft(draftKey);
    else
      saveDraft(draftKey, {
        clientName,
        projectName,
        materials: materials.map((m) => ({ ...m, optional: m.optional ?? false })),
        labor: labor.map((l) => ({
          ...l,
          description: l.description ?? '',
          hours: l.hours ?? 1,
          flat: l.flat ?? false,
          optional: l.optional ?? false,
        })),
        validUntil,
        deposit: deposit && Number.isFinite(deposit.value) ? deposit : null,
        notes,
        internalNotes,
        poNumber,
      });
  }, [draftKey, sent, values]);
  return values;
}
