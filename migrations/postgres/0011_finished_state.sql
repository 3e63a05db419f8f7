-- A finished report's final state travels with its notification: reportgen_finished_state carries, for
-- each report a statement finished, what a summary shows that finishing changes (status, the winning
-- attempt, error, size, pages, times, progress). A long poll waiting on another instance then answers
-- without reading the report again (src/modules/reports/peers.ts); it read the report, and checked its
-- account, before it waited. A NOTIFY payload is at most 8000 bytes: the states go in as many
-- notifications as they need, and a state too large for one (a very long error message) goes as its id
-- alone: that waiter reads the report. reportgen_finished (the ids) is still sent, for instances of the
-- previous release during a rolling upgrade; the release after this one stops sending it. Its ids are
-- now split the same way: a statement that finished more than ~200 reports (the reaper's) no longer
-- fails on a payload past the limit.
CREATE OR REPLACE FUNCTION reports_notify_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  ids TEXT := '';
  states TEXT := '';
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status = 'queued' AND o.status <> 'queued') THEN
    PERFORM pg_notify('reportgen_queue', '');
  END IF;
  FOR r IN
    SELECT s.id, CASE WHEN octet_length(s.state) <= 4000 THEN s.state ELSE json_build_object('id', s.id)::text END AS state
    FROM (
      SELECT n.id, json_build_object('id', n.id, 'status', n.status, 'attempts', n.attempts, 'errorCode', n.error_code,
        'errorMessage', n.error_message, 'sizeBytes', n.size_bytes, 'pageCount', n.page_count, 'startedAt', n.started_at,
        'finishedAt', n.finished_at, 'expiresAt', n.expires_at, 'progressDone', n.progress_done,
        'progressTotal', n.progress_total)::text AS state
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.status IN ('succeeded', 'failed') AND o.status IN ('queued', 'processing')) s
  LOOP
    IF ids <> '' AND octet_length(ids) + octet_length(r.id) + 1 > 7900 THEN
      PERFORM pg_notify('reportgen_finished', ids);
      ids := '';
    END IF;
    ids := CASE WHEN ids = '' THEN r.id ELSE ids || ',' || r.id END;
    IF states <> '' AND octet_length(states) + octet_length(r.state) + 3 > 7900 THEN
      PERFORM pg_notify('reportgen_finished_state', '[' || states || ']');
      states := '';
    END IF;
    states := CASE WHEN states = '' THEN r.state ELSE states || ',' || r.state END;
  END LOOP;
  IF ids <> '' THEN
    PERFORM pg_notify('reportgen_finished', ids);
    PERFORM pg_notify('reportgen_finished_state', '[' || states || ']');
  END IF;
  RETURN NULL;
END $$;
