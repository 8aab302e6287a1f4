CREATE TABLE "plan_offers" (
	"id" text PRIMARY KEY NOT NULL,
	"service_plan_id" text NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"included" text NOT NULL,
	"service_address_id" text,
	"address" jsonb NOT NULL,
	"rule" jsonb NOT NULL,
	"billing" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"taxable" boolean NOT NULL,
	"term_months" integer NOT NULL,
	"state" text DEFAULT 'Offered' NOT NULL,
	"signed_name" text,
	"signed_at" timestamp with time zone,
	"job_id" text,
	"plan_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_offers_state_check" CHECK ("plan_offers"."state" in ('Offered', 'Signed', 'Withdrawn'))
);
--> statement-breakpoint
CREATE TABLE "service_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"included" text DEFAULT '' NOT NULL,
	"visits_per_year" integer NOT NULL,
	"start" text NOT NULL,
	"end" text NOT NULL,
	"billing" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"taxable" boolean DEFAULT false NOT NULL,
	"term_months" integer DEFAULT 12 NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_plans_billing_check" CHECK ("service_plans"."billing" in ('visit', 'month')),
	CONSTRAINT "service_plans_price_range" CHECK ("service_plans"."price_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_kind_check";--> statement-breakpoint
ALTER TABLE "visit_plans" ADD COLUMN "billing" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "visit_plans" ADD COLUMN "price_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "visit_plans" ADD COLUMN "taxable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "visit_plans" ADD COLUMN "billed_through" date;--> statement-breakpoint
ALTER TABLE "visit_plans" ADD COLUMN "replaced_by" text;--> statement-breakpoint
ALTER TABLE "visit_plans" ADD COLUMN "offer_id" text;--> statement-breakpoint
ALTER TABLE "visit_plans" ADD COLUMN "renewal_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "invoice_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "source_key" text;--> statement-breakpoint
ALTER TABLE "plan_offers" ADD CONSTRAINT "plan_offers_service_plan_id_service_plans_id_fk" FOREIGN KEY ("service_plan_id") REFERENCES "public"."service_plans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_offers" ADD CONSTRAINT "plan_offers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_offers" ADD CONSTRAINT "plan_offers_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_offers_client_idx" ON "plan_offers" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_source_key_idx" ON "invoices" USING btree ("source_key") WHERE "invoices"."source_key" is not null;--> statement-breakpoint
ALTER TABLE "visit_plans" ADD CONSTRAINT "visit_plans_billing_check" CHECK ("visit_plans"."billing" in ('none', 'visit', 'month'));--> statement-breakpoint
ALTER TABLE "visit_plans" ADD CONSTRAINT "visit_plans_price_range" CHECK ("visit_plans"."price_cents" >= 0);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('final', 'deposit', 'plan'));