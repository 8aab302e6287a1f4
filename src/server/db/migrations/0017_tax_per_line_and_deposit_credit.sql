ALTER TABLE "invoice_lines" ADD COLUMN "taxable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credited_invoice_id" text;--> statement-breakpoint
ALTER TABLE "quote_labor" ADD COLUMN "taxable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_materials" ADD COLUMN "taxable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "materials_taxable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "labor_taxable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A final invoice that took a deposit off names the deposit invoice it took off ("Less deposit INV-…").
UPDATE "invoices" AS f SET "credited_invoice_id" = d."id"
FROM "invoices" AS d
WHERE f."kind" = 'final' AND f."credit_cents" > 0 AND d."kind" = 'deposit' AND d."state" <> 'Void' AND d."job_id" = f."job_id";
