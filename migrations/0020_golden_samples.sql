-- Golden samples of stored templates (issue 44): named sample data sets, at most 20 a template (the
-- service counts them in the insert's transaction), and what comparing two versions found.
-- require_approval (0/1): a version whose comparison changed pages becomes the default only when approved.
-- approved_version: the version generation requests without template_version render while
-- require_approval is set (NULL: the latest, as before; set by an approval or a comparison that is "same").
ALTER TABLE templates ADD COLUMN require_approval INTEGER NOT NULL DEFAULT 0 CHECK (require_approval IN (0, 1));
ALTER TABLE templates ADD COLUMN approved_version INTEGER;

CREATE TABLE template_samples (
  id TEXT PRIMARY KEY,
  template_id TEXT NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX template_samples_name ON template_samples(template_id, name);

-- One row per comparison (on a version's creation, or asked for): result is the answer's JSON, whose
-- pictures (before, after, diff PNGs of changed pages) are kept by sha256 beside the asset files.
CREATE TABLE template_comparisons (
  id TEXT PRIMARY KEY,
  template_id TEXT NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  base INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('same', 'changed')),
  result TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX template_comparisons_version ON template_comparisons(template_id, version, created_at DESC);
