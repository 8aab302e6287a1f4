ALTER TABLE "quotes" RENAME COLUMN "quote_id" TO "quote_number";--> statement-breakpoint
ALTER INDEX "quotes_quote_id_idx" RENAME TO "quotes_quote_number_idx";