-- reportgen's schema on PostgreSQL: the SQLite schema of migrations 0001-0008 in one step, plus what
-- only a shared database needs (shared secrets, NOTIFY triggers). Times are BIGINT milliseconds since
-- the epoch, as in SQLite, so both engines answer the same repository SQL with the same values.

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL
);

CREATE TABLE access_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  secret_check TEXT
);
CREATE INDEX access_keys_account ON access_keys(account_id, created_at);

-- A report is also its queue entry. attempts, bumped by each claim, fences the outcome: only the claim
-- holding the current attempt may record it. lease_owner/lease_expires_at: see queue_lease in SQLite.
CREATE TABLE reports (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  engine TEXT NOT NULL CHECK (engine IN ('ejs', 'raw')),
  status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'succeeded', 'failed', 'expired')),
  template TEXT,
  data TEXT,
  options TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  error_code TEXT,
  error_message TEXT,
  size_bytes BIGINT,
  page_count INTEGER,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT,
  expires_at BIGINT,
  request_id TEXT,
  not_before BIGINT,
  merge_parts TEXT,
  lease_owner TEXT,
  lease_expires_at BIGINT
);
CREATE INDEX reports_account_created ON reports(account_id, created_at DESC, id DESC);
CREATE INDEX reports_account_status ON reports(account_id, status);
CREATE INDEX reports_expires ON reports(expires_at) WHERE expires_at IS NOT NULL;
-- The queue: claims read it in order; the reaper reads expired leases.
CREATE INDEX reports_queued ON reports(created_at, id) WHERE status = 'queued';
CREATE INDEX reports_leases ON reports(lease_expires_at) WHERE status = 'processing';

CREATE TABLE health_probe (
  name TEXT PRIMARY KEY,
  checked_at BIGINT NOT NULL
);

CREATE TABLE dashboard_sessions (
  id_hash TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES access_keys(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX dashboard_sessions_key ON dashboard_sessions(key_id);
CREATE INDEX dashboard_sessions_expires ON dashboard_sessions(expires_at);

CREATE TABLE webhook_secrets (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  previous_secret TEXT,
  previous_expires_at BIGINT
);

CREATE TABLE report_webhooks (
  report_id TEXT PRIMARY KEY REFERENCES reports(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  link_origin TEXT NOT NULL
);

-- A pending delivery is claimed by pushing next_attempt_at a lease ahead: if its instance dies, the
-- delivery becomes due again when the lease runs out.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  report_id TEXT NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  event TEXT NOT NULL CHECK (event IN ('report.succeeded', 'report.failed')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  next_attempt_at BIGINT,
  finished_at BIGINT,
  last_error TEXT,
  claimed_by TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_report ON webhook_deliveries(report_id);

CREATE TABLE webhook_attempts (
  id BIGSERIAL PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  started_at BIGINT NOT NULL,
  duration_ms INTEGER NOT NULL,
  response_status INTEGER,
  error TEXT
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, id);

CREATE TABLE idempotency_keys (
  id BIGSERIAL PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_hash TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX idempotency_keys_scope ON idempotency_keys(account_id, key_hash);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

CREATE TABLE job_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);

-- Secrets every instance must share (the link-signing secret, the auth pepper): on one machine they
-- are files in the data dir; here the first instance to start creates them, the others read them.
CREATE TABLE shared_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- The webhook event is queued by the statement that records a report's final status, as in SQLite.
CREATE FUNCTION reports_finished_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (id, report_id, event, status, attempts, created_at, next_attempt_at)
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), NEW.id, 'report.' || NEW.status, 'pending', 0,
         coalesce(NEW.finished_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint),
         coalesce(NEW.finished_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
  FROM report_webhooks w
  WHERE w.report_id = NEW.id AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.report_id = NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER reports_finished_webhook AFTER UPDATE OF status ON reports FOR EACH ROW
WHEN (NEW.status IN ('succeeded', 'failed') AND OLD.status IN ('queued', 'processing'))
EXECUTE FUNCTION reports_finished_webhook();

-- Wake-ups: one NOTIFY per statement (and PostgreSQL folds equal ones of a transaction into one), never
-- one per row. reportgen_queue: reports became claimable; reportgen_finished: the ids of reports that
-- reached their final status, for long polls waiting on any instance.
CREATE FUNCTION reports_notify_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows WHERE status = 'queued') THEN
    PERFORM pg_notify('reportgen_queue', '');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER reports_notify_inserted AFTER INSERT ON reports REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION reports_notify_inserted();

CREATE FUNCTION reports_notify_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  finished TEXT;
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status = 'queued' AND o.status <> 'queued') THEN
    PERFORM pg_notify('reportgen_queue', '');
  END IF;
  SELECT string_agg(n.id, ',') INTO finished FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE n.status IN ('succeeded', 'failed') AND o.status IN ('queued', 'processing');
  IF finished IS NOT NULL THEN
    PERFORM pg_notify('reportgen_finished', finished);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER reports_notify_updated AFTER UPDATE ON reports REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION reports_notify_updated();
