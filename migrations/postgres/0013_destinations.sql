-- Destinations and the durable queue of report deliveries: as SQLite's 0018_destinations.sql.
CREATE TABLE destinations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('s3', 'sftp', 'email')),
  settings TEXT NOT NULL,
  sealed_secrets TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX destinations_account_created ON destinations(account_id, created_at, id);

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
  created_at BIGINT NOT NULL,
  next_attempt_at BIGINT,
  delivered_at BIGINT,
  last_error TEXT,
  claimed_by TEXT
);
CREATE INDEX report_deliveries_due ON report_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX report_deliveries_report ON report_deliveries(report_id, position);

CREATE FUNCTION reports_finished_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_deliveries SET
    next_attempt_at = CASE WHEN NEW.status = 'succeeded'
      THEN coalesce(NEW.finished_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint) END,
    status = CASE WHEN NEW.status = 'succeeded' THEN 'pending' ELSE 'failed' END,
    last_error = CASE WHEN NEW.status = 'succeeded' THEN NULL ELSE 'the report failed: there is no PDF to deliver' END
  WHERE report_id = NEW.id AND status = 'pending' AND next_attempt_at IS NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER reports_finished_deliveries AFTER UPDATE OF status ON reports FOR EACH ROW
WHEN (NEW.status IN ('succeeded', 'failed') AND OLD.status IN ('queued', 'processing'))
EXECUTE FUNCTION reports_finished_deliveries();

-- Webhook events of deliveries: as in SQLite, under event 'report.succeeded' with their type in `detail`.
ALTER TABLE webhook_deliveries ADD COLUMN detail TEXT;

UPDATE access_keys SET scopes = scopes || ' destinations:manage' WHERE ' ' || scopes || ' ' LIKE '% keys:manage %';
