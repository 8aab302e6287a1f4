ALTER TABLE "checkout_sessions" ADD COLUMN "excess_refund_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "excess_payment_id" text;--> statement-breakpoint
CREATE INDEX "checkout_sessions_refund_due_idx" ON "checkout_sessions" USING btree ("next_check_at") WHERE "checkout_sessions"."excess_refund_cents" > 0;