CREATE TABLE "booking_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"windows" jsonb NOT NULL,
	"lead_business_days" integer DEFAULT 1 NOT NULL,
	"horizon_days" integer DEFAULT 30 NOT NULL,
	"client_changes" boolean DEFAULT true NOT NULL,
	"change_cutoff_hours" integer DEFAULT 24 NOT NULL,
	"max_moves" integer DEFAULT 2 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_settings_single_row" CHECK ("booking_settings"."id" = 1),
	CONSTRAINT "booking_settings_lead_range" CHECK ("booking_settings"."lead_business_days" between 0 and 30),
	CONSTRAINT "booking_settings_horizon_range" CHECK ("booking_settings"."horizon_days" between 1 and 120),
	CONSTRAINT "booking_settings_cutoff_range" CHECK ("booking_settings"."change_cutoff_hours" between 0 and 168),
	CONSTRAINT "booking_settings_moves_range" CHECK ("booking_settings"."max_moves" between 0 and 10)
);
--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "client_moves" integer DEFAULT 0 NOT NULL;