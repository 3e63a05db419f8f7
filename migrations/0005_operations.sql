-- The request that submitted a report: the log lines of its rendering carry the same id.
ALTER TABLE reports ADD COLUMN request_id TEXT;

-- One row that /readyz rewrites to prove the database still takes writes (a full or read-only
-- disk refuses the commit even when reads keep working).
CREATE TABLE health_probe (
  name TEXT PRIMARY KEY,
  checked_at INTEGER NOT NULL
);
