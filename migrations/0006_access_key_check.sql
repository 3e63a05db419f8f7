-- A short keyed check value per access key (a few bytes of HMAC-SHA256 of the secret under the
-- server's auth pepper): lets the server refuse nearly every wrong secret without running argon2.
-- NULL for keys created before this migration until their first successful use fills it in.
ALTER TABLE access_keys ADD COLUMN secret_check TEXT;
