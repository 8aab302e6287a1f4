CREATE TABLE "text_accounts" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"account_sid" text NOT NULL,
	"auth_token_sealed" text NOT NULL,
	"from_number" text DEFAULT '' NOT NULL,
	"messaging_service_sid" text DEFAULT '' NOT NULL,
	"daily_limit" integer DEFAULT 6 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "text_links" (
	"code" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "text_links_client_idx" UNIQUE("client_id")
);
--> statement-breakpoint
CREATE TABLE "text_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text,
	"visit_id" text,
	"kind" text NOT NULL,
	"to_number" text NOT NULL,
	"body" text NOT NULL,
	"page_link" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"provider_sid" text,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"state_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "text_messages_kind_check" CHECK ("text_messages"."kind" in ('visit-booked', 'visit-moved', 'visit-cancelled', 'visit-reminder', 'on-my-way', 'test')),
	CONSTRAINT "text_messages_state_check" CHECK ("text_messages"."state" in ('queued', 'sent', 'delivered', 'failed', 'not-sent', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "text_opt_outs" (
	"number" text PRIMARY KEY NOT NULL,
	"stopped_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "mobile" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "message_channel" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "on_my_way_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "text_links" ADD CONSTRAINT "text_links_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "text_messages" ADD CONSTRAINT "text_messages_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "text_messages_due_idx" ON "text_messages" USING btree ("next_attempt_at") WHERE "text_messages"."state" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "text_messages_provider_sid_idx" ON "text_messages" USING btree ("provider_sid") WHERE "text_messages"."provider_sid" is not null;--> statement-breakpoint
CREATE INDEX "text_messages_client_idx" ON "text_messages" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "text_messages_number_idx" ON "text_messages" USING btree ("to_number","created_at");--> statement-breakpoint
CREATE INDEX "text_messages_visit_idx" ON "text_messages" USING btree ("visit_id","kind") WHERE "text_messages"."visit_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "text_messages_on_my_way_idx" ON "text_messages" USING btree ("visit_id") WHERE "text_messages"."kind" = 'on-my-way';--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_message_channel_check" CHECK ("clients"."message_channel" in ('email', 'text', 'both'));