-- The calendar's and the figures' version rows (0016, 0027) are each locked at commit, in the order the
-- transaction's changes came: accepting a quote (a quote, then a job) took figures then calendar, a visit
-- booked with an invoice the other way round, and two such commits at once deadlocked (a client's
-- "Accept" answered 500 in CI). The figures' bump now locks the calendar's row first, so every
-- transaction takes the two in one order: calendar, then figures.
CREATE OR REPLACE FUNCTION figures_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('handyman.figures_bumped', true) IS DISTINCT FROM '1' THEN
    PERFORM 1 FROM calendar_version WHERE id = 1 FOR UPDATE;
    UPDATE figures_version SET v = v + 1 WHERE id = 1;
    PERFORM set_config('handyman.figures_bumped', '1', true);
  END IF;
  RETURN NULL;
END
$$;
