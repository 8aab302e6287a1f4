DROP INDEX "clients_email_lower_idx";--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "billing_street" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "billing_city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "billing_state" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "billing_zip" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clients_phone_without_email_idx" ON "clients" USING btree ("phone_digits") WHERE "clients"."email" = '' and "clients"."phone_digits" <> '';--> statement-breakpoint
CREATE INDEX "jobs_client_idx" ON "jobs" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "invoices_client_idx" ON "invoices" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_email_lower_idx" ON "clients" USING btree (lower("email")) WHERE "clients"."email" <> '';--> statement-breakpoint
-- The jobs and invoices already stored: their client is their request's.
UPDATE "jobs" SET "client_id" = r."client_id" FROM "quote_requests" r WHERE r."id" = "jobs"."quote_request_id" AND "jobs"."client_id" IS NULL;--> statement-breakpoint
UPDATE "invoices" SET "client_id" = j."client_id" FROM "jobs" j WHERE j."id" = "invoices"."job_id" AND "invoices"."client_id" IS NULL;
