CREATE TABLE "text_inbound" (
	"message_sid" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "text_messages" DROP CONSTRAINT "text_messages_kind_check";--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "time_set_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "confirmed_by" text;--> statement-breakpoint
ALTER TABLE "text_messages" ADD COLUMN "resent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "text_messages_sent_at_idx" ON "text_messages" USING btree ("sent_at") WHERE "text_messages"."sent_at" is not null;--> statement-breakpoint
CREATE INDEX "text_messages_trouble_idx" ON "text_messages" USING btree ("created_at") WHERE "text_messages"."state" in ('failed', 'not-sent');--> statement-breakpoint
ALTER TABLE "text_messages" ADD CONSTRAINT "text_messages_kind_check" CHECK ("text_messages"."kind" in ('visit-booked', 'visit-moved', 'visit-cancelled', 'visit-reminder', 'on-my-way', 'quote-sent', 'invoice-sent', 'test', 'reply'));