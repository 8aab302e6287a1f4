CREATE TABLE "price_book_items" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"unit" text NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	"taxable" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_book_items_kind_check" CHECK ("price_book_items"."kind" in ('service', 'material')),
	CONSTRAINT "price_book_items_price_check" CHECK ("price_book_items"."unit_price_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "quote_labor" ADD COLUMN "flat" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "price_book_items_name_idx" ON "price_book_items" USING btree ("kind",lower("name"));--> statement-breakpoint
CREATE INDEX "price_book_items_order_idx" ON "price_book_items" USING btree ("name");--> statement-breakpoint
-- The Settings' materials price list moves into the price book as its materials (decision 032).
INSERT INTO "price_book_items" ("id", "kind", "name", "unit", "unit_price_cents", "taxable")
SELECT DISTINCT ON (lower(trim(m.value->>'name')))
	substr(md5(random()::text || m.ord::text || (m.value->>'name')), 1, 24),
	'material',
	trim(m.value->>'name'),
	'each',
	greatest(0, (m.value->>'unitPriceCents')::bigint),
	coalesce((m.value->>'taxable')::boolean, true)
FROM "settings" s, jsonb_array_elements(s."material_price_list") WITH ORDINALITY AS m(value, ord)
WHERE coalesce(trim(m.value->>'name'), '') <> ''
ORDER BY lower(trim(m.value->>'name')), m.ord;--> statement-breakpoint
ALTER TABLE "settings" DROP COLUMN "material_price_list";