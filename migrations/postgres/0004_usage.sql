-- Usage (issue 25): the daily roll-up of SQLite's 0012_usage, kept by triggers on reports in the very
-- statement that inserts a report or records its final status (see there for what counts where).
-- The triggers run once per statement over its transition tables and upsert their rows in id order:
-- one statement records many outcomes at once (the queue's batched success), and two instances doing
-- so concurrently then lock the roll-up rows they share in the same order, so they cannot deadlock.
CREATE TABLE usage_daily (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  submitted BIGINT NOT NULL DEFAULT 0,
  succeeded BIGINT NOT NULL DEFAULT 0,
  failed BIGINT NOT NULL DEFAULT 0,
  pages BIGINT NOT NULL DEFAULT 0,
  bytes BIGINT NOT NULL DEFAULT 0,
  render_ms BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX usage_daily_account_day ON usage_daily(account_id, day);

INSERT INTO usage_daily (id, account_id, key_id, day, submitted, succeeded, failed, pages, bytes, render_ms)
SELECT CAST(created_at / 86400000 AS TEXT) || '/' || account_id || '/' || coalesce(key_id, ''), account_id, coalesce(key_id, ''),
       created_at / 86400000, count(*),
       sum(CASE WHEN status IN ('succeeded', 'expired') THEN 1 ELSE 0 END),
       sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END),
       sum(CASE WHEN status IN ('succeeded', 'expired') THEN coalesce(page_count, 0) ELSE 0 END),
       sum(CASE WHEN status IN ('succeeded', 'expired') THEN coalesce(size_bytes, 0) ELSE 0 END),
       sum(CASE WHEN status IN ('succeeded', 'expired') AND finished_at >= started_at THEN finished_at - started_at ELSE 0 END)
FROM reports GROUP BY created_at / 86400000, account_id, coalesce(key_id, '');

CREATE FUNCTION reports_usage_submitted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily AS u (id, account_id, key_id, day, submitted)
  SELECT CAST(n.created_at / 86400000 AS TEXT) || '/' || n.account_id || '/' || coalesce(n.key_id, ''), n.account_id,
         coalesce(n.key_id, ''), n.created_at / 86400000, count(*)
  FROM new_rows n
  GROUP BY n.created_at / 86400000, n.account_id, coalesce(n.key_id, '')
  ORDER BY 1
  ON CONFLICT (id) DO UPDATE SET submitted = u.submitted + excluded.submitted;
  RETURN NULL;
END $$;
CREATE TRIGGER reports_usage_submitted AFTER INSERT ON reports REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION reports_usage_submitted();

-- The same transition as the webhook trigger: a report reaches succeeded or failed once.
CREATE FUNCTION reports_usage_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily AS u (id, account_id, key_id, day, succeeded, failed, pages, bytes, render_ms)
  SELECT CAST(n.created_at / 86400000 AS TEXT) || '/' || n.account_id || '/' || coalesce(n.key_id, ''), n.account_id,
         coalesce(n.key_id, ''), n.created_at / 86400000,
         sum(CASE WHEN n.status = 'succeeded' THEN 1 ELSE 0 END),
         sum(CASE WHEN n.status = 'failed' THEN 1 ELSE 0 END),
         sum(CASE WHEN n.status = 'succeeded' THEN coalesce(n.page_count, 0) ELSE 0 END),
         sum(CASE WHEN n.status = 'succeeded' THEN coalesce(n.size_bytes, 0) ELSE 0 END),
         sum(CASE WHEN n.status = 'succeeded' AND n.finished_at >= n.started_at THEN n.finished_at - n.started_at ELSE 0 END)
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE n.status IN ('succeeded', 'failed') AND o.status IN ('queued', 'processing')
  GROUP BY n.created_at / 86400000, n.account_id, coalesce(n.key_id, '')
  ORDER BY 1
  ON CONFLICT (id) DO UPDATE SET succeeded = u.succeeded + excluded.succeeded, failed = u.failed + excluded.failed,
    pages = u.pages + excluded.pages, bytes = u.bytes + excluded.bytes, render_ms = u.render_ms + excluded.render_ms;
  RETURN NULL;
END $$;
CREATE TRIGGER reports_usage_finished AFTER UPDATE ON reports REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION reports_usage_finished();
