-- Schedules (src/modules/schedules/): an account's stored template rendered on a cron schedule. No foreign
-- key to templates: a deleted template makes the schedule's next run fail visibly (in its runs), rather
-- than silently deleting the schedule. next_run_at is the next tick not yet considered; a tick counts as
-- missed (catch_up) when it is noticed late. Times are Unix milliseconds.
CREATE TABLE schedules (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  cron TEXT NOT NULL,
  timezone TEXT NOT NULL,
  template_id TEXT NOT NULL,
  template_version INTEGER,
  data TEXT,
  data_url TEXT,
  options TEXT,
  deliver TEXT,
  webhook_url TEXT,
  catch_up TEXT NOT NULL CHECK (catch_up IN ('none', 'last')),
  paused INTEGER NOT NULL DEFAULT 0,
  next_run_at INTEGER,
  created_by TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX schedules_account_created ON schedules(account_id, created_at, id);
CREATE INDEX schedules_due ON schedules(next_run_at) WHERE paused = 0;

-- One row per tick that ran. The unique (schedule_id, scheduled_for) is the claim: of N instances that
-- see the same tick due, only the one whose insert succeeds runs it. A failed run's schedule.run_failed
-- event (with a webhook) is sent from the same row: webhook_status pending → delivered | failed.
CREATE TABLE schedule_runs (
  id TEXT PRIMARY KEY,
  schedule_id TEXT NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  scheduled_for INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'submitted', 'failed')),
  report_id TEXT,
  error TEXT,
  caught_up INTEGER NOT NULL DEFAULT 0,
  webhook_status TEXT CHECK (webhook_status IN ('pending', 'delivered', 'failed')),
  webhook_attempts INTEGER NOT NULL DEFAULT 0,
  webhook_next_at INTEGER,
  created_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE UNIQUE INDEX schedule_runs_tick ON schedule_runs(schedule_id, scheduled_for);
CREATE INDEX schedule_runs_account_created ON schedule_runs(account_id, schedule_id, created_at, id);
CREATE INDEX schedule_runs_created ON schedule_runs(created_at);
CREATE INDEX schedule_runs_webhook_due ON schedule_runs(webhook_next_at) WHERE webhook_status = 'pending';

-- Keys that manage access (keys:manage, the operator's) may manage schedules too: without this no
-- existing key could, since a key grants only scopes it holds.
UPDATE access_keys SET scopes = scopes || ' schedules:manage' WHERE ' ' || scopes || ' ' LIKE '% keys:manage %';
