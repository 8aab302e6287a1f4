ALTER TABLE "visits" ADD COLUMN "awaiting_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_settings" ADD COLUMN "needs_approval" boolean DEFAULT false NOT NULL;