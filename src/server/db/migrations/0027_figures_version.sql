CREATE TABLE "figures_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"v" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "figures_version_single_row" CHECK ("figures_version"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "figures_version" ("id", "v") VALUES (1, 0);
--> statement-breakpoint
-- Once per transaction, at its commit (deferred), as calendar_version (0016): the one row is locked last
-- and only while committing, so it cannot deadlock with the rows the transaction locked before.
CREATE FUNCTION figures_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('handyman.figures_bumped', true) IS DISTINCT FROM '1' THEN
    UPDATE figures_version SET v = v + 1 WHERE id = 1;
    PERFORM set_config('handyman.figures_bumped', '1', true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER figures_version_quotes AFTER INSERT OR UPDATE OR DELETE ON quotes DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION figures_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER figures_version_jobs AFTER INSERT OR UPDATE OR DELETE ON jobs DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION figures_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER figures_version_job_records AFTER INSERT OR UPDATE OF report_at OR DELETE ON job_records DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION figures_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER figures_version_invoices AFTER INSERT OR UPDATE OR DELETE ON invoices DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION figures_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER figures_version_payments AFTER INSERT OR UPDATE OR DELETE ON payments DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION figures_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER figures_version_settings AFTER INSERT OR UPDATE OR DELETE ON settings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION figures_version_bump();
