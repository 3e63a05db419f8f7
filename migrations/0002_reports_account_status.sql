-- The per-account queue cap counts an account's unfinished reports on every submission: without this
-- index that count scanned every report the account ever made.
CREATE INDEX reports_account_status ON reports(account_id, status);
