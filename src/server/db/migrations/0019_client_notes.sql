ALTER TABLE "job_records" ADD COLUMN "client_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "client_note" text DEFAULT '' NOT NULL;