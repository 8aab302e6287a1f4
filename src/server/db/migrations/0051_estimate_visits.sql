ALTER TABLE "visits" ALTER COLUMN "job_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "quote_request_id" text;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_quote_request_id_quote_requests_id_fk" FOREIGN KEY ("quote_request_id") REFERENCES "public"."quote_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visits_request_idx" ON "visits" USING btree ("quote_request_id","starts_at") WHERE "visits"."quote_request_id" is not null;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_of_a_job_or_a_request" CHECK (("visits"."job_id" is null) <> ("visits"."quote_request_id" is null));