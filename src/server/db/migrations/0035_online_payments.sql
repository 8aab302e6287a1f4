CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"provider" text NOT NULL,
	"session_id" text NOT NULL,
	"payment_ref" text,
	"amount_cents" bigint NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"url" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"next_check_at" timestamp with time zone NOT NULL,
	"checks" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkout_sessions_state_check" CHECK ("checkout_sessions"."state" in ('open', 'processing', 'paid', 'expired', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "payment_accounts" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"provider" text DEFAULT 'stripe' NOT NULL,
	"secret_key_sealed" text NOT NULL,
	"webhook_secret_sealed" text,
	"online_for" text DEFAULT 'both' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_accounts_online_for_check" CHECK ("payment_accounts"."online_for" in ('deposits', 'invoices', 'both'))
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_amount_positive";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_method_check";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fee_cents" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_of" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_session_idx" ON "checkout_sessions" USING btree ("provider","session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_one_open_idx" ON "checkout_sessions" USING btree ("invoice_id") WHERE "checkout_sessions"."state" = 'open';--> statement-breakpoint
CREATE INDEX "checkout_sessions_due_idx" ON "checkout_sessions" USING btree ("next_check_at") WHERE "checkout_sessions"."state" in ('open', 'processing');--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_ref_idx" ON "payments" USING btree ("provider","provider_ref") WHERE "payments"."provider_ref" is not null;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_not_zero" CHECK ("payments"."amount_cents" <> 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('cash', 'check', 'card in person', 'bank transfer', 'other', 'card online', 'refund'));