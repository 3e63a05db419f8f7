-- A merged report (POST /reports/merge) has no template: merge_parts lists the report ids it joins,
-- in order, as a JSON array. NULL for every other report. Kept after the report finishes (ids only).
ALTER TABLE reports ADD COLUMN merge_parts TEXT;
