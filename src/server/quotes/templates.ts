import { asc, count, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { toCents, toDollars } from '#shared/money';
import { MAX_QUOTE_TEMPLATES, type QuoteTemplate, type quoteTemplateInput } from '#shared/schemas/quotes';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { isUniqueViolation } from '../lib/db-errors';
import { conflict, notFound } from '../lib/http-errors';
import { quoteTemplates } from './tables';

// Quote templates (decision 032): a quote's lines and the notes the client reads, kept under a name.

type Input = z.output<typeof quoteTemplateInput>;
type TemplateRow = typeof quoteTemplates.$inferSelect;

/** The lines in cents, as stored; only the fields a template has (what the schema let through). */
const stored = (input: Input) => ({
  name: input.name,
  notes: input.notes,
  materials: input.materials.map((m) => ({
    name: m.name,
    unitPriceCents: toCents(m.unitPrice),
    quantity: m.quantity,
    optional: m.optional,
    taxable: m.taxable,
  })),
  labor: input.labor.map((l) => ({
    description: l.description,
    hourlyRateCents: toCents(l.hourlyRate),
    hours: l.flat ? 1 : l.hours,
    flat: l.flat,
    optional: l.optional,
    taxable: l.taxable,
  })),
});

export const templateView = (row: TemplateRow): QuoteTemplate => ({
  _id: row.id,
  name: row.name,
  notes: row.notes,
  materials: row.materials.map((m) => ({
    name: m.name,
    unitPrice: toDollars(m.unitPriceCents),
    quantity: m.quantity,
    optional: m.optional,
    ...(m.taxable === undefined ? {} : { taxable: m.taxable }),
  })),
  labor: row.labor.map((l) => ({
    description: l.description,
    hourlyRate: toDollars(l.hourlyRateCents),
    hours: l.hours,
    flat: l.flat,
    optional: l.optional,
    ...(l.taxable === undefined ? {} : { taxable: l.taxable }),
  })),
  updatedAt: row.updatedAt.toISOString(),
});

/** A second template of a name (any case) is refused in the owner's words. */
async function named<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A template named "${name}" already exists`, 'CONFLICT');
    throw error;
  }
}

async function findTemplate(db: DbOrTx, id: string) {
  const [row] = await db.select().from(quoteTemplates).where(eq(quoteTemplates.id, id));
  return row;
}

/** Every template, by name. */
export async function listTemplates(db: DbOrTx): Promise<QuoteTemplate[]> {
  const rows = await db
    .select()
    .from(quoteTemplates)
    .orderBy(asc(sql`lower(${quoteTemplates.name})`), asc(quoteTemplates.id))
    .limit(MAX_QUOTE_TEMPLATES);
  return rows.map(templateView);
}

export async function getTemplate(db: DbOrTx, id: string): Promise<QuoteTemplate> {
  const row = await findTemplate(db, id);
  if (!row) throw notFound('Template not found');
  return templateView(row);
}

/** Keeps a template; the count is checked under a lock so two saves at once cannot pass the limit. */
export async function saveTemplate(db: Db, input: Input): Promise<QuoteTemplate> {
  const id = newId();
  await named(input.name, () =>
    db.transaction(async (tx) => {
      await tx.execute(sql`lock table quote_templates in share row exclusive mode`);
      const [total] = await tx.select({ n: count() }).from(quoteTemplates);
      if ((total?.n ?? 0) >= MAX_QUOTE_TEMPLATES)
        throw conflict(`At most ${MAX_QUOTE_TEMPLATES} templates can be kept`, 'RECORD_LIMIT');
      await tx.insert(quoteTemplates).values({ id, ...stored(input) });
    }),
  );
  return getTemplate(db, id);
}

export async function renameTemplate(db: Db, id: string, name: string): Promise<QuoteTemplate> {
  // Each write in a transaction, so the request's trail entry is stored with it (decision 023).
  const rows = await named(name, () =>
    db.transaction((tx) =>
      tx
        .update(quoteTemplates)
        .set({ name, updatedAt: new Date() })
        .where(eq(quoteTemplates.id, id))
        .returning({ id: quoteTemplates.id }),
    ),
  );
  if (rows.length === 0) throw notFound('Template not found');
  return getTemplate(db, id);
}

export async function deleteTemplate(db: Db, id: string): Promise<void> {
  const rows = await db.transaction((tx) =>
    tx.delete(quoteTemplates).where(eq(quoteTemplates.id, id)).returning({ id: quoteTemplates.id }),
  );
  if (rows.length === 0) throw notFound('Template not found');
}
