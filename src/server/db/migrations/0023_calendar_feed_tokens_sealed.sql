DROP INDEX "calendar_feeds_token_idx";--> statement-breakpoint
ALTER TABLE "calendar_feeds" ALTER COLUMN "token" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "token_digest" text;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "token_sealed" text;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_token_digest_idx" ON "calendar_feeds" USING btree ("token_digest");