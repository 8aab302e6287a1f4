CREATE TABLE "audit_people" (
	"user_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"last_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
INSERT INTO "audit_people" ("user_id", "name", "last_at")
  SELECT DISTINCT ON ("user_id") "user_id", "actor_name", "at" FROM "audit_log" WHERE "user_id" IS NOT NULL ORDER BY "user_id", "at" DESC, "seq" DESC;
--> statement-breakpoint
CREATE FUNCTION audit_people_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.user_id IS NOT NULL THEN
    INSERT INTO audit_people (user_id, name, last_at) VALUES (NEW.user_id, NEW.actor_name, NEW.at)
      ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name, last_at = EXCLUDED.last_at
      WHERE audit_people.last_at <= EXCLUDED.last_at;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_people_on_insert AFTER INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_people_keep();
