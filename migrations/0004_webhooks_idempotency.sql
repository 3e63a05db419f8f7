-- Signed webhooks (Standard Webhooks) and idempotency keys.

-- One signing secret per account: "whsec_" + base64 of 32 random bytes. Kept as is because HMAC
-- signing needs the secret itself (a hash would not do), like the link secret. After a rotation the
-- previous secret also signs every event until previous_expires_at, so receivers can switch over
-- without rejecting events signed in between.
CREATE TABLE webhook_secrets (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  previous_secret TEXT,
  previous_expires_at INTEGER
);

-- The webhook a report was submitted with, written in the same transaction as the report.
-- link_origin is the origin of the download link the success event carries (the submitting request's).
CREATE TABLE report_webhooks (
  report_id TEXT PRIMARY KEY REFERENCES reports(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  link_origin TEXT NOT NULL
);

-- One row per event to deliver; its id is the webhook-id header, the same on every attempt, so a
-- receiver can discard a repeat. Pending rows are the delivery queue and survive restarts.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  report_id TEXT NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  event TEXT NOT NULL CHECK (event IN ('report.succeeded', 'report.failed')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  next_attempt_at INTEGER,
  finished_at INTEGER,
  last_error TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_report ON webhook_deliveries(report_id);

-- The log of every attempt: what the receiver answered (response_status) or what went wrong (error).
CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  response_status INTEGER,
  error TEXT
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, id);

-- The event is queued by the very statement that records the report's final status, whichever code
-- path runs it (a finished render, a failure, crash recovery giving up): it commits or rolls back with
-- that status change, so no finished report can miss its event and none gets two.
CREATE TRIGGER reports_finished_webhook AFTER UPDATE OF status ON reports
WHEN NEW.status IN ('succeeded', 'failed') AND OLD.status IN ('queued', 'processing')
BEGIN
  INSERT INTO webhook_deliveries (id, report_id, event, status, attempts, created_at, next_attempt_at)
  SELECT 'msg_' || lower(hex(randomblob(16))), NEW.id, 'report.' || NEW.status, 'pending', 0,
         coalesce(NEW.finished_at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         coalesce(NEW.finished_at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
  FROM report_webhooks w
  WHERE w.report_id = NEW.id AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.report_id = NEW.id);
END;

-- Idempotency-Key records (Stripe's semantics), per account, kept 24 hours. The key itself is never
-- stored: key_hash finds the record, and the stored response is encrypted (AES-256-GCM) with a key
-- derived from the Idempotency-Key and the server secret, so the response of POST /access-keys (a
-- key value) can be replayed to the client that knows the Idempotency-Key but is unreadable from the
-- database alone. fingerprint is a digest of the method, path and canonical JSON body.
CREATE TABLE idempotency_keys (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_hash TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX idempotency_keys_scope ON idempotency_keys(account_id, key_hash);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
