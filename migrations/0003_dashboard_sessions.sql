-- Dashboard sign-in sessions. Only a SHA-256 of the session id is stored: a copy of the database
-- does not let anyone take over a session. Deleting a key deletes its sessions (ON DELETE CASCADE),
-- so signing in with a key can never outlive the key.
CREATE TABLE dashboard_sessions (
  id_hash TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES access_keys(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX dashboard_sessions_key ON dashboard_sessions(key_id);
CREATE INDEX dashboard_sessions_expires ON dashboard_sessions(expires_at);
