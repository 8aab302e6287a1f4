ALTER TABLE "clients" ADD COLUMN "phone_digits" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "clients" SET "phone_digits" = regexp_replace(regexp_replace("phone", '[^0-9]', '', 'g'), '^1([0-9]{10})$', '\1');--> statement-breakpoint
CREATE INDEX "clients_phone_digits_reversed_idx" ON "clients" USING btree (reverse("phone_digits") text_pattern_ops);