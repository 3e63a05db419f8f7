-- SQLite's 0014: the asset library (see there for why it looks like this), with BIGINT times.
CREATE TABLE assets (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'font/woff2', 'font/woff', 'font/ttf', 'font/otf', 'text/css')),
  size_bytes BIGINT NOT NULL,
  sha256 TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX assets_account_name ON assets(account_id, name);
CREATE INDEX assets_account_created ON assets(account_id, created_at DESC, id DESC);

-- Keys that existed before hold no asset scope, and a key can only grant scopes it holds: without this,
-- no key could ever reach the library. A key that may change (read) templates could already inline any
-- image in them, so it gains assets:write (assets:read); order within the text does not matter.
UPDATE access_keys SET scopes = scopes || ' assets:write' WHERE ' ' || scopes || ' ' LIKE '% templates:write %';
UPDATE access_keys SET scopes = scopes || ' assets:read' WHERE ' ' || scopes || ' ' LIKE '% templates:read %';
