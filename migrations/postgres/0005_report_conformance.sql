-- SQLite's 0013: what a report's PDF conforms to (options.pdfa, an e-invoice's summary), as JSON; kept
-- after the report finishes, unlike options. Null for a plain PDF.
ALTER TABLE reports ADD COLUMN conformance TEXT;
