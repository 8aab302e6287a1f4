ALTER TABLE "client_addresses" ADD COLUMN "label" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "company_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_requests" ADD COLUMN "service_address_id" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "po_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "service_address_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "billing_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "po_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_requests" ADD CONSTRAINT "quote_requests_service_address_id_client_addresses_id_fk" FOREIGN KEY ("service_address_id") REFERENCES "public"."client_addresses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_service_address_id_client_addresses_id_fk" FOREIGN KEY ("service_address_id") REFERENCES "public"."client_addresses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Every request's and job's address becomes one of its client's service addresses (the oldest first),
-- nothing lost: an address not yet among the client's is added, then each row names its address.
INSERT INTO "client_addresses" ("id", "client_id", "street", "city", "state", "zip", "created_at")
SELECT DISTINCT ON ("client_id", lower("street"), lower("zip"))
  substr(md5(random()::text || "id"), 1, 24), "client_id", "street", "city", "state", "zip", "created_at"
FROM (
  SELECT "id", "client_id", "street", "city", "state", "zip", "created_at" FROM "quote_requests" WHERE "client_id" IS NOT NULL
  UNION ALL
  SELECT "id", "client_id", "street", "city", "state", "zip", "created_at" FROM "jobs" WHERE "client_id" IS NOT NULL
) AS "places"
ORDER BY "client_id", lower("street"), lower("zip"), "created_at"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
UPDATE "quote_requests" r SET "service_address_id" = a."id" FROM "client_addresses" a
WHERE a."client_id" = r."client_id" AND lower(a."street") = lower(r."street") AND lower(a."zip") = lower(r."zip");
--> statement-breakpoint
UPDATE "jobs" j SET "service_address_id" = a."id" FROM "client_addresses" a
WHERE a."client_id" = j."client_id" AND lower(a."street") = lower(j."street") AND lower(a."zip") = lower(j."zip");
