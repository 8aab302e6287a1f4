CREATE TABLE "client_addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_counts" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote_request_events" (
	"id" text PRIMARY KEY NOT NULL,
	"quote_request_id" text NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"user_id" text,
	"quote_number" text,
	"message" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"mail_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "quotes_quote_request_idx";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quote_labor" ADD COLUMN "optional" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_labor" ADD COLUMN "included" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_materials" ADD COLUMN "optional" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_materials" ADD COLUMN "included" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_requests" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "quote_requests" ADD COLUMN "quote_status" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "replaced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "valid_until" date;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "accepted_name" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "accepted_ip" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "quote_reminder_days" integer[] DEFAULT '{3,7}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "client_addresses" ADD CONSTRAINT "client_addresses_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_request_events" ADD CONSTRAINT "quote_request_events_quote_request_id_quote_requests_id_fk" FOREIGN KEY ("quote_request_id") REFERENCES "public"."quote_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_request_events" ADD CONSTRAINT "quote_request_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "client_addresses_unique_idx" ON "client_addresses" USING btree ("client_id",lower("street"),lower("zip"));--> statement-breakpoint
CREATE UNIQUE INDEX "clients_email_lower_idx" ON "clients" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "clients_created_idx" ON "clients" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "clients_search_trgm_idx" ON "clients" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "quote_request_events_request_idx" ON "quote_request_events" USING btree ("quote_request_id","created_at");--> statement-breakpoint
ALTER TABLE "quote_requests" ADD CONSTRAINT "quote_requests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quote_requests_client_idx" ON "quote_requests" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "quote_requests_quote_status_idx" ON "quote_requests" USING btree ("quote_status","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_request_version_idx" ON "quotes" USING btree ("quote_request_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_current_idx" ON "quotes" USING btree ("quote_request_id") WHERE "quotes"."replaced_at" is null;--> statement-breakpoint
ALTER TABLE "quote_requests" ADD CONSTRAINT "quote_requests_quote_status_check" CHECK ("quote_requests"."quote_status" in ('Pending', 'Accepted', 'Declined', 'Requested More Info'));--> statement-breakpoint
-- Quotes sent before valid-until dates existed: valid for the 30 days their link was.
UPDATE "quotes" SET "valid_until" = ("created_at" AT TIME ZONE 'America/Los_Angeles')::date + 30;
--> statement-breakpoint
ALTER TABLE "quotes" ALTER COLUMN "valid_until" SET NOT NULL;
--> statement-breakpoint
UPDATE "quote_requests" r SET "quote_status" = q."status" FROM "quotes" q WHERE q."quote_request_id" = r."id";
--> statement-breakpoint
-- Existing requests get their clients: one per e-mail (case-insensitive), named as in the newest request.
INSERT INTO "clients" ("id", "name", "email", "phone", "created_at", "updated_at")
SELECT DISTINCT ON (lower("contact_email"))
  lpad(to_hex(floor(extract(epoch FROM "created_at"))::bigint), 8, '0') || substr(md5(random()::text || "contact_email"), 1, 16),
  "contact_name", "contact_email", "contact_phone", "created_at", now()
FROM "quote_requests" ORDER BY lower("contact_email"), "created_at" DESC;
--> statement-breakpoint
UPDATE "quote_requests" r SET "client_id" = c."id" FROM "clients" c WHERE lower(c."email") = lower(r."contact_email");
--> statement-breakpoint
INSERT INTO "client_addresses" ("id", "client_id", "street", "city", "state", "zip", "created_at")
SELECT DISTINCT ON ("client_id", lower("street"), lower("zip"))
  substr(md5(random()::text || "id"), 1, 24), "client_id", "street", "city", "state", "zip", "created_at"
FROM "quote_requests" WHERE "client_id" IS NOT NULL ORDER BY "client_id", lower("street"), lower("zip"), "created_at";
--> statement-breakpoint
UPDATE "clients" c SET "search_text" = lower(concat_ws(' ', c."name", c."email", c."phone", regexp_replace(c."phone", '[^0-9]', '', 'g'),
  (SELECT string_agg(concat_ws(' ', a."street", a."city", a."state", a."zip"), ' ') FROM "client_addresses" a WHERE a."client_id" = c."id")));
--> statement-breakpoint
INSERT INTO "client_counts" ("id", "n") SELECT 1, count(*) FROM "clients";
--> statement-breakpoint
CREATE FUNCTION client_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE client_counts SET n = n + 1 WHERE id = 1;
  ELSE
    UPDATE client_counts SET n = n - 1 WHERE id = 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER client_counts_on_insert_delete AFTER INSERT OR DELETE ON clients FOR EACH ROW EXECUTE FUNCTION client_counts_keep();
--> statement-breakpoint
-- The history of what already happened, as far as the rows tell it.
INSERT INTO "quote_request_events" ("id", "quote_request_id", "kind", "actor", "created_at")
SELECT substr(md5(random()::text || "id" || 'c'), 1, 24), "id", 'request-created', 'client', "created_at" FROM "quote_requests";
--> statement-breakpoint
INSERT INTO "quote_request_events" ("id", "quote_request_id", "kind", "actor", "quote_number", "created_at")
SELECT substr(md5(random()::text || "id" || 's'), 1, 24), "quote_request_id", 'quote-sent', 'staff', "quote_id", "created_at" FROM "quotes";
--> statement-breakpoint
INSERT INTO "quote_request_events" ("id", "quote_request_id", "kind", "actor", "quote_number", "message", "created_at")
SELECT substr(md5(random()::text || "id" || 'a'), 1, 24), "quote_request_id",
  CASE "status" WHEN 'Accepted' THEN 'quote-accepted' WHEN 'Declined' THEN 'quote-declined' ELSE 'question' END,
  'client', "quote_id", "client_message", "answered_at"
FROM "quotes" WHERE "answered_at" IS NOT NULL;
