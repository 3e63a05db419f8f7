-- Stored templates (issue 21). A template belongs to one account and has an engine fixed at creation;
-- its content lives in immutable, numbered versions. latest_version is the highest version number, bumped
-- in the transaction that inserts the version. Deleting a template deletes its versions (ON DELETE
-- CASCADE); reports made from it keep their PDFs and their copy of the template, because a report stores
-- the rendered inputs itself and names the template only by value (no foreign key).
CREATE TABLE templates (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  engine TEXT NOT NULL CHECK (engine IN ('ejs', 'raw')),
  latest_version INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX templates_account_created ON templates(account_id, created_at DESC, id DESC);

-- One row per version, never updated. data_schema, sample_data and options are JSON text (NULL when not
-- given); warnings is the JSON array of preflight warnings computed when the version was saved.
CREATE TABLE template_versions (
  id TEXT PRIMARY KEY,
  template_id TEXT NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  html_template TEXT NOT NULL,
  data_schema TEXT,
  sample_data TEXT,
  options TEXT,
  warnings TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX template_versions_number ON template_versions(template_id, version);

-- The template and version a report was made from; NULL for inline templates and merges.
ALTER TABLE reports ADD COLUMN template_id TEXT;
ALTER TABLE reports ADD COLUMN template_version INTEGER;
