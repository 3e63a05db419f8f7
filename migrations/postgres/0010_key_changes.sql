-- Access key changes, announced: every instance keeps the keys it has verified for a moment
-- (src/modules/keys/row-cache.ts) and forgets one as soon as this names it. Any change but the
-- last-used time (written on use, at most once a minute per key) counts: deletion (an account's
-- included, by cascade), rotation, expiry, scopes, quota, check value.
CREATE FUNCTION access_keys_notify_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (to_jsonb(NEW) - 'last_used_at') IS DISTINCT FROM (to_jsonb(OLD) - 'last_used_at') THEN
    PERFORM pg_notify('reportgen_keys', OLD.id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER access_keys_notify_changed AFTER UPDATE OR DELETE ON access_keys
FOR EACH ROW EXECUTE FUNCTION access_keys_notify_changed();
