-- A report put back in the queue after an infrastructure fault (Chromium or a sandbox crashed or hung)
-- waits until not_before (ms since the epoch) before it is claimed again: retries back off.
ALTER TABLE reports ADD COLUMN not_before INTEGER;
