ALTER TABLE "text_messages" DROP CONSTRAINT "text_messages_kind_check";--> statement-breakpoint
ALTER TABLE "text_messages" ADD COLUMN "mail_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "text_messages_mail_idx" ON "text_messages" USING btree ("mail_id") WHERE "text_messages"."mail_id" is not null;--> statement-breakpoint
ALTER TABLE "text_messages" ADD CONSTRAINT "text_messages_kind_check" CHECK ("text_messages"."kind" in ('visit-booked', 'visit-moved', 'visit-cancelled', 'visit-reminder', 'on-my-way', 'quote-sent', 'invoice-sent', 'test', 'reply', 'mail-failed'));