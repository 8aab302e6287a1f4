-- Stored PDFs, job reports and photos are kept as they are, not compressed again by the database: their
-- bytes are JPEG and deflate already, so compressing gains nothing, and on the embedded database the
-- attempt tripled the one statement that stores a 12 MB report (about 0.5 s against 0.15 s, holding
-- every other query meanwhile). Values stored before keep their form; both read back the same.
ALTER TABLE "documents" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "job_records" ALTER COLUMN "report" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "job_photos" ALTER COLUMN "data" SET STORAGE EXTERNAL;
