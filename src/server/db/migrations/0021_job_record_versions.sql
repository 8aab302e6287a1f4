CREATE TABLE "job_record_versions" (
	"target" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"change_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job_record_versions" ADD CONSTRAINT "job_record_versions_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_record_versions_job_idx" ON "job_record_versions" USING btree ("job_id");