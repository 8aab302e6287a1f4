CREATE TABLE "text_failure_notices" (
	"day" text PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"texts" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "text_messages" ADD COLUMN "owner_noticed_at" timestamp with time zone;