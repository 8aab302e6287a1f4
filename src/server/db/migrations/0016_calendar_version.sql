CREATE TABLE "calendar_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"v" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "calendar_version_single_row" CHECK ("calendar_version"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "calendar_version" ("id", "v") VALUES (1, 0);
--> statement-breakpoint
-- Once per transaction, at its commit (deferred): the lock on the one row is taken last and held only
-- while committing, so it cannot deadlock with the row locks the transaction took before.
CREATE FUNCTION calendar_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('handyman.calendar_bumped', true) IS DISTINCT FROM '1' THEN
    UPDATE calendar_version SET v = v + 1 WHERE id = 1;
    PERFORM set_config('handyman.calendar_bumped', '1', true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER calendar_version_visits AFTER INSERT OR UPDATE OR DELETE ON visits DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION calendar_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER calendar_version_visit_workers AFTER INSERT OR UPDATE OR DELETE ON visit_workers DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION calendar_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER calendar_version_jobs AFTER INSERT OR UPDATE OR DELETE ON jobs DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION calendar_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER calendar_version_users AFTER INSERT OR UPDATE OR DELETE ON users DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION calendar_version_bump();
