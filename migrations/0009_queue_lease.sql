-- The queue's lease and fence (the same columns as PostgreSQL's, so the repositories share their SQL).
-- lease_owner names the process that claimed a processing report; lease_expires_at (ms since the epoch)
-- is when the reaper may take it back unless the owner's heartbeat renewed it. attempts, bumped by every
-- claim, is the fence: only the claim holding the current attempt may record the outcome.
ALTER TABLE reports ADD COLUMN lease_owner TEXT;
ALTER TABLE reports ADD COLUMN lease_expires_at INTEGER;

-- A pending webhook delivery being attempted names the process attempting it (its next_attempt_at is
-- then the end of that claim): a restarted single-machine server gives its predecessor's claims back.
ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT;

-- Jobs that run once at a time across everything sharing the database (the retention cleanup): the
-- holder of a row's unexpired lease runs it.
CREATE TABLE job_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
