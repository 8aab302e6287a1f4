DROP INDEX "invoices_live_job_idx";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "kind" text DEFAULT 'final' NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_request_events" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "quote_request_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "deposit_kind" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "deposit_value" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_live_job_idx" ON "invoices" USING btree ("job_id") WHERE "invoices"."state" <> 'Void' and "invoices"."kind" = 'final';--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('final', 'deposit'));--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_deposit_check" CHECK (("quotes"."deposit_kind" is null and "quotes"."deposit_value" is null) or ("quotes"."deposit_kind" in ('percent', 'amount') and "quotes"."deposit_value" > 0));