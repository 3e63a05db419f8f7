-- SQLite's 0014: how far a chunked report has got while it renders (chunks printed, chunks in all);
-- null for a report that is not chunked.
ALTER TABLE reports ADD COLUMN progress_done INTEGER;
ALTER TABLE reports ADD COLUMN progress_total INTEGER;
