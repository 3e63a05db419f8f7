-- Destinations (where reports are delivered: an S3 bucket, an SFTP server, e-mail recipients) and the
-- durable queue of deliveries (options.deliver).

-- An account's destination. settings holds what may be shown (JSON: endpoint, bucket, host, host key,
-- recipients...); sealed_secrets only the seal of its secrets (secret access key, private key,
-- password: AES-256-GCM under a key derived from the server secret, bound to the destination's id).
CREATE TABLE destinations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('s3', 'sftp', 'email')),
  settings TEXT NOT NULL,
  sealed_secrets TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX destinations_account_created ON destinations(account_id, created_at, id);

-- One row per (report, entry of options.deliver), written in the report's insert transaction. It waits
-- (pending, next_attempt_at NULL) until the report's PDF is durable: the trigger below makes it due in
-- the statement that records the success. A pending row is claimed by pushing next_attempt_at a lease
-- ahead (claimed_by names the process), as webhook deliveries are. target is the object key or file
-- name, fixed when the report is accepted, so every attempt writes the same one. destination_id has no
-- foreign key: a destination deleted before its delivery fails it with a clear error instead.
CREATE TABLE report_deliveries (
  id TEXT PRIMARY KEY,
  report_id TEXT NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  destination_id TEXT NOT NULL,
  target TEXT NOT NULL,
  subject TEXT,
  body TEXT,
  link_origin TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  next_attempt_at INTEGER,
  delivered_at INTEGER,
  last_error TEXT,
  claimed_by TEXT
);
CREATE INDEX report_deliveries_due ON report_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX report_deliveries_report ON report_deliveries(report_id, position);

-- A report's deliveries become due in the statement that records its success (its PDF is then in the
-- store), and fail with it when it fails: whichever code path records the final status.
CREATE TRIGGER reports_finished_deliveries AFTER UPDATE OF status ON reports
WHEN NEW.status IN ('succeeded', 'failed') AND OLD.status IN ('queued', 'processing')
BEGIN
  UPDATE report_deliveries SET
    next_attempt_at = CASE WHEN NEW.status = 'succeeded'
      THEN coalesce(NEW.finished_at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) END,
    status = CASE WHEN NEW.status = 'succeeded' THEN 'pending' ELSE 'failed' END,
    last_error = CASE WHEN NEW.status = 'succeeded' THEN NULL ELSE 'the report failed: there is no PDF to deliver' END
  WHERE report_id = NEW.id AND status = 'pending' AND next_attempt_at IS NULL;
END;

-- Webhook events of deliveries (report.delivered, report.delivery_failed) are queued in the
-- transaction that records the delivery's end. SQLite cannot widen the event column's CHECK in place
-- (Bun opens databases in defensive mode, so writable_schema is refused, and a rebuild would drop and
-- rename the table, which the rolling-upgrade rule forbids): such a row keeps event 'report.succeeded'
-- (they only follow a success) and `detail` holds its own type and the delivery as it ended.
ALTER TABLE webhook_deliveries ADD COLUMN detail TEXT;

-- Keys that manage access (keys:manage, the operator's) may manage destinations too: without this no
-- existing key could, since a key grants only scopes it holds.
UPDATE access_keys SET scopes = scopes || ' destinations:manage' WHERE ' ' || scopes || ' ' LIKE '% keys:manage %';
