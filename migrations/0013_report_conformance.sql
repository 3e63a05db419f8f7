-- What a report's PDF conforms to (options.pdfa, and later options.e_invoice's summary), as JSON, e.g.
-- {"pdfa":"3b"}. Unlike options, which are deleted when the report finishes, it stays, so that
-- GET /reports/{id} can say what the PDF is. Null for a plain PDF.
ALTER TABLE reports ADD COLUMN conformance TEXT;
