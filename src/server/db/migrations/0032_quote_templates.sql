CREATE TABLE "quote_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"materials" jsonb NOT NULL,
	"labor" jsonb NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "internal_notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "quote_templates_name_idx" ON "quote_templates" USING btree (lower("name"));