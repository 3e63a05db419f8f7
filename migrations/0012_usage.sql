-- Usage (issue 25): a daily roll-up per account and submitting key, kept by triggers on reports in the
-- very statement that inserts a report or records its final status, whichever code path runs it (a
-- submission, a finished render, a failure, crash recovery giving up). It commits or rolls back with
-- that change, so it can neither miss a report nor count one twice, and it outlives the reports
-- themselves: a report deleted by its owner still counts in the usage of its day.
--
-- A report counts on the UTC day it was submitted (day = created_at in days since 1970-01-01), under
-- the key that submitted it (key_id '' for reports older than keys being recorded). succeeded, pages,
-- bytes and render_ms (finished_at - started_at of the successful attempt) count successes only.
-- id is '<day>/<account_id>/<key_id>': one text key, so `migrate-to` pages it like every other table.
CREATE TABLE usage_daily (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  submitted INTEGER NOT NULL DEFAULT 0,
  succeeded INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  pages INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  render_ms INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX usage_daily_account_day ON usage_daily(account_id, day);

-- What the reports already there add up to, so the roll-up agrees with the reports table from the start.
INSERT INTO usage_daily (id, account_id, key_id, day, submitted, succeeded, failed, pages, bytes, render_ms)
SELECT CAST(created_at / 86400000 AS TEXT) || '/' || account_id || '/' || coalesce(key_id, ''), account_id, coalesce(key_id, ''),
       created_at / 86400000, count(*),
       sum(CASE WHEN status IN ('succeeded', 'expired') THEN 1 ELSE 0 END),
       sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END),
       sum(CASE WHEN status IN ('succeeded', 'expired') THEN coalesce(page_count, 0) ELSE 0 END),
       sum(CASE WHEN status IN ('succeeded', 'expired') THEN coalesce(size_bytes, 0) ELSE 0 END),
       sum(CASE WHEN status IN ('succeeded', 'expired') AND finished_at >= started_at THEN finished_at - started_at ELSE 0 END)
FROM reports GROUP BY created_at / 86400000, account_id, coalesce(key_id, '');

CREATE TRIGGER reports_usage_submitted AFTER INSERT ON reports
BEGIN
  INSERT INTO usage_daily (id, account_id, key_id, day, submitted)
  VALUES (CAST(NEW.created_at / 86400000 AS TEXT) || '/' || NEW.account_id || '/' || coalesce(NEW.key_id, ''), NEW.account_id,
          coalesce(NEW.key_id, ''), NEW.created_at / 86400000, 1)
  ON CONFLICT (id) DO UPDATE SET submitted = submitted + 1;
END;

-- The same transition as the webhook trigger (0004): a report reaches succeeded or failed once.
CREATE TRIGGER reports_usage_finished AFTER UPDATE OF status ON reports
WHEN NEW.status IN ('succeeded', 'failed') AND OLD.status IN ('queued', 'processing')
BEGIN
  INSERT INTO usage_daily (id, account_id, key_id, day, succeeded, failed, pages, bytes, render_ms)
  VALUES (CAST(NEW.created_at / 86400000 AS TEXT) || '/' || NEW.account_id || '/' || coalesce(NEW.key_id, ''), NEW.account_id,
          coalesce(NEW.key_id, ''), NEW.created_at / 86400000,
          NEW.status = 'succeeded', NEW.status = 'failed',
          CASE WHEN NEW.status = 'succeeded' THEN coalesce(NEW.page_count, 0) ELSE 0 END,
          CASE WHEN NEW.status = 'succeeded' THEN coalesce(NEW.size_bytes, 0) ELSE 0 END,
          CASE WHEN NEW.status = 'succeeded' AND NEW.finished_at >= NEW.started_at THEN NEW.finished_at - NEW.started_at ELSE 0 END)
  ON CONFLICT (id) DO UPDATE SET succeeded = succeeded + excluded.succeeded, failed = failed + excluded.failed,
    pages = pages + excluded.pages, bytes = bytes + excluded.bytes, render_ms = render_ms + excluded.render_ms;
END;
