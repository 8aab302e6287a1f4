ALTER TABLE "clients" ADD COLUMN "page_link_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "client_page" boolean DEFAULT false NOT NULL;