-- The commit guard: a report's insert may commit only within reportgen.commit_within milliseconds of
-- its transaction's BEGIN. An instance that serves requests sets that on its connections to the
-- longest a request waits for the database (src/db/deadline.ts): a COMMIT that a hung server finds
-- waiting when it resumes, later than that, belongs to a request long answered 503 and is refused (one
-- that lands sooner is undone by the instance, src/db/undo.ts). Other connections (the CLI,
-- migrate-to) leave the setting unset: no limit.
CREATE FUNCTION reportgen_commit_in_time() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  within_ms text := current_setting('reportgen.commit_within', true);
BEGIN
  IF coalesce(within_ms, '') <> '' AND clock_timestamp() > now() + make_interval(secs => within_ms::numeric / 1000) THEN
    RAISE EXCEPTION 'the request that inserted this report has given up on it (% ms after BEGIN)', within_ms USING ERRCODE = 'RGL01';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER reports_commit_in_time AFTER INSERT ON reports
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION reportgen_commit_in_time();
