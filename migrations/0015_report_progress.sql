-- How far a chunked report (options.chunk) has got while it renders: chunks printed and chunks in all.
-- Written once per chunk; GET /reports/{id} shows it as progress while the report is processing.
-- Null for a report that is not chunked.
ALTER TABLE reports ADD COLUMN progress_done INTEGER;
ALTER TABLE reports ADD COLUMN progress_total INTEGER;
