-- Accounts own access keys and reports.
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);

-- An access key is "rg_<id>_<secret>": the id is public and indexed, only an argon2id hash of the secret is kept.
CREATE TABLE access_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
);
CREATE INDEX access_keys_account ON access_keys(account_id, created_at);

-- A report is also its own queue entry: status 'queued' rows are the work queue, so a report is
-- accepted only once this row is committed and survives any crash.
CREATE TABLE reports (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  engine TEXT NOT NULL CHECK (engine IN ('ejs', 'raw')),
  status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'succeeded', 'failed', 'expired')),
  -- The input is kept only until the report is finished.
  template TEXT,
  data TEXT,
  options TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  error_code TEXT,
  error_message TEXT,
  size_bytes INTEGER,
  page_count INTEGER,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  expires_at INTEGER
);
CREATE INDEX reports_account_created ON reports(account_id, created_at DESC, id DESC);
CREATE INDEX reports_status_created ON reports(status, created_at);
CREATE INDEX reports_expires ON reports(expires_at) WHERE expires_at IS NOT NULL;
