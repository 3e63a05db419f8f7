-- Signing identities (options.signature): an account's PKCS#12 key and certificate chain. The private
-- key is stored only sealed (AES-256-GCM under a key derived from the server secret, bound to the
-- identity's id: src/lib/seal.ts); the chain (public) as JSON, an array of base64 DER certificates,
-- the signer's first. The other columns describe the signer's certificate for the API and dashboard.
CREATE TABLE signing_identities (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  common_name TEXT NOT NULL,
  subject TEXT NOT NULL,
  issuer TEXT NOT NULL,
  serial TEXT NOT NULL,
  not_before INTEGER NOT NULL,
  not_after INTEGER NOT NULL,
  sha256_fingerprint TEXT NOT NULL,
  chain TEXT NOT NULL,
  sealed_key TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX signing_identities_account_created ON signing_identities(account_id, created_at, id);

-- Keys that manage access (keys:manage, the operator's) may manage signing identities too: without
-- this no existing key could, since a key grants only scopes it holds.
UPDATE access_keys SET scopes = scopes || ' signing:manage' WHERE ' ' || scopes || ' ' LIKE '% keys:manage %';
