-- Access control (issue 25): scopes, expiry, rotation and daily quotas per access key; the key that
-- submitted each report; the audit trail.
--
-- scopes: space-separated, from the closed list in src/modules/keys/scopes.ts. Keys that existed before
-- this migration keep every scope (the default), so upgrading changes nothing for their holders.
ALTER TABLE access_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT 'reports:write reports:read templates:write templates:read keys:manage';
-- ms since the epoch; NULL: never expires.
ALTER TABLE access_keys ADD COLUMN expires_at INTEGER;
-- Reports the key may submit per UTC day; NULL: no quota.
ALTER TABLE access_keys ADD COLUMN max_reports_per_day INTEGER;
-- Rotation: the value before the last rotation keeps working until previous_valid_until (the grace).
ALTER TABLE access_keys ADD COLUMN previous_secret_hash TEXT;
ALTER TABLE access_keys ADD COLUMN previous_secret_check TEXT;
ALTER TABLE access_keys ADD COLUMN previous_valid_until INTEGER;
ALTER TABLE access_keys ADD COLUMN rotated_at INTEGER;

-- The key that submitted a report, recorded at submission. Deliberately no foreign key: a deleted key
-- keeps its reports' history (usage per key). NULL for reports older than this migration.
ALTER TABLE reports ADD COLUMN key_id TEXT;
CREATE INDEX reports_key_created ON reports(key_id, created_at);

-- Reports submitted per key per UTC day (day = days since 1970-01-01): the quota's counter. Bumped in
-- the same transaction as the report's insert with a conditional upsert, so concurrent submissions can
-- never pass the quota together. No foreign key, like reports.key_id; the retention job drops old days.
-- id is '<key_id>/<day>': one text key, so `migrate-to` pages it like every other table.
CREATE TABLE key_daily_counts (
  id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  reports INTEGER NOT NULL
);
CREATE INDEX key_daily_counts_day ON key_daily_counts(day);

-- What was done to an account's keys and secrets, by whom, from where. actor: 'key' (actor_key_id
-- names it) or 'cli' (reportgen admin). account_id is NULL only for failed sign-ins with a key value
-- naming no existing key (kept for the operator; no account can list them). detail: a JSON object.
CREATE TABLE audit_events (
  id TEXT PRIMARY KEY,
  account_id TEXT REFERENCES accounts(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  actor TEXT NOT NULL,
  actor_key_id TEXT,
  client_address TEXT,
  target TEXT,
  detail TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX audit_events_account_created ON audit_events(account_id, created_at, id);
CREATE INDEX audit_events_created ON audit_events(created_at);
