CREATE TABLE "settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"business_name" text NOT NULL,
	"business_email" text NOT NULL,
	"business_phone" text NOT NULL,
	"business_address" text DEFAULT '' NOT NULL,
	"service_area_headline" text NOT NULL,
	"service_area" text[] DEFAULT '{}'::text[] NOT NULL,
	"tax_rate_basis_points" integer NOT NULL,
	"quote_validity_days" integer NOT NULL,
	"owner_email" text NOT NULL,
	"time_zone" text NOT NULL,
	"logo" "bytea",
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settings_single_row" CHECK ("settings"."id" = 1),
	CONSTRAINT "settings_tax_rate_range" CHECK ("settings"."tax_rate_basis_points" between 0 and 5000),
	CONSTRAINT "settings_quote_validity_range" CHECK ("settings"."quote_validity_days" between 1 and 365)
);
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "tax_rate_basis_points" integer DEFAULT 800 NOT NULL;