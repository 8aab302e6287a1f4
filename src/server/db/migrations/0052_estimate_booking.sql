ALTER TABLE "booking_settings" ADD COLUMN "online_booking" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_settings" ADD COLUMN "estimate_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_settings" ADD COLUMN "estimate_worker_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_settings" ADD COLUMN "booking_area" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_settings" ADD CONSTRAINT "booking_settings_estimate_range" CHECK ("booking_settings"."estimate_minutes" between 15 and 480);