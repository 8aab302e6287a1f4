ALTER TABLE "invoices" ADD COLUMN "paid_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "invoices" SET "paid_cents" = p.total FROM (SELECT "invoice_id", sum("amount_cents") AS total FROM "payments" GROUP BY "invoice_id") p WHERE p."invoice_id" = "invoices"."id";--> statement-breakpoint
CREATE FUNCTION invoices_paid_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE invoices SET paid_cents = paid_cents - OLD.amount_cents WHERE id = OLD.invoice_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE invoices SET paid_cents = paid_cents + NEW.amount_cents WHERE id = NEW.invoice_id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER invoices_paid_on_insert_delete AFTER INSERT OR DELETE ON payments FOR EACH ROW EXECUTE FUNCTION invoices_paid_keep();--> statement-breakpoint
CREATE TRIGGER invoices_paid_on_change AFTER UPDATE OF amount_cents, invoice_id ON payments FOR EACH ROW WHEN (OLD.amount_cents IS DISTINCT FROM NEW.amount_cents OR OLD.invoice_id IS DISTINCT FROM NEW.invoice_id) EXECUTE FUNCTION invoices_paid_keep();--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_paid_range" CHECK ("invoices"."paid_cents" >= 0);--> statement-breakpoint
CREATE INDEX "invoices_owing_due_idx" ON "invoices" USING btree ("due_date") WHERE "invoices"."state" = 'Sent' and "invoices"."total_cents" - "invoices"."credit_cents" - "invoices"."paid_cents" > 0;--> statement-breakpoint
CREATE INDEX "invoices_search_trgm_idx" ON "invoices" USING gin ((lower(coalesce("number", '') || ' ' || "client_name" || ' ' || "client_email")) gin_trgm_ops);
