CREATE TABLE "quote_request_counts" (
	"status" text PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "quote_request_counts" ("status", "n") SELECT "status", count(*) FROM "quote_requests" GROUP BY "status";
--> statement-breakpoint
CREATE FUNCTION quote_request_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE quote_request_counts SET n = n - 1 WHERE status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO quote_request_counts (status, n) VALUES (NEW.status, 1)
      ON CONFLICT (status) DO UPDATE SET n = quote_request_counts.n + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER quote_request_counts_on_insert_delete AFTER INSERT OR DELETE ON quote_requests FOR EACH ROW EXECUTE FUNCTION quote_request_counts_keep();
--> statement-breakpoint
CREATE TRIGGER quote_request_counts_on_status AFTER UPDATE OF status ON quote_requests FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION quote_request_counts_keep();
