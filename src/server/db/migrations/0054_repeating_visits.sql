CREATE TABLE "visit_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"rule" jsonb NOT NULL,
	"rrule" text NOT NULL,
	"worker_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"client_note" text DEFAULT '' NOT NULL,
	"horizon_weeks" integer DEFAULT 8 NOT NULL,
	"made_through" date,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_plans_horizon_range" CHECK ("visit_plans"."horizon_weeks" between 1 and 26)
);
--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "plan_id" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "plan_date" date;--> statement-breakpoint
ALTER TABLE "visit_plans" ADD CONSTRAINT "visit_plans_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visit_plans_job_idx" ON "visit_plans" USING btree ("job_id");--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_plan_id_visit_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."visit_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "visits_plan_date_idx" ON "visits" USING btree ("plan_id","plan_date") WHERE "visits"."plan_id" is not null;