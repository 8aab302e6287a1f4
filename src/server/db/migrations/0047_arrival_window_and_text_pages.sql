ALTER TABLE "settings" ADD COLUMN "arrival_window_minutes" integer DEFAULT 120 NOT NULL;--> statement-breakpoint
ALTER TABLE "text_messages" ADD COLUMN "quote_request_id" text;--> statement-breakpoint
ALTER TABLE "text_messages" ADD COLUMN "job_id" text;--> statement-breakpoint
CREATE INDEX "text_messages_request_idx" ON "text_messages" USING btree ("quote_request_id","created_at") WHERE "text_messages"."quote_request_id" is not null;--> statement-breakpoint
CREATE INDEX "text_messages_job_idx" ON "text_messages" USING btree ("job_id","created_at") WHERE "text_messages"."job_id" is not null;--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_arrival_window_range" CHECK ("settings"."arrival_window_minutes" between 0 and 480);