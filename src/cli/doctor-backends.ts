// doctor's checks of the cluster backends: PostgreSQL (--database-url) and the S3 bucket (--storage-url).
// Each says "not used" when its setting is empty. The probes use the clients the service uses
// (src/db/postgres.ts, Bun.S3Client): a real connection and query, a real object put, read and deleted.
import { randomUUID } from "node:crypto";
import { clockOff, clockOffset, describeClockOffset, MAX_CLOCK_OFFSET_MS } from "../db/clock";
import { PostgresSql } from "../db/postgres";
import { withTimeout } from "../lib/supervisor";
import type { Check, CheckResult } from "./doctor-types";

const PROBE_TIMEOUT_MS = 10_000;

const deadline = <T>(p: Promise<T>, what: string): Promise<T> =>
  withTimeout(p, PROBE_TIMEOUT_MS, `${what}: no answer within ${PROBE_TIMEOUT_MS / 1000} s`);

/** host:port/database of a postgres:// URL, without its user and password. */
export function describePostgresUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname || "/"}`;
}

const CONNECT_FIX =
  "check --database-url / REPORTGEN_DATABASE_URL (host, port, user, password, database), that PostgreSQL listens there and that pg_hba.conf admits this host";

/** The PostgreSQL check, comparing PostgreSQL's clock with `now` (this machine's; tests skew it). */
export const postgresCheck = (now: () => number = Date.now): Check => ({
  name: "PostgreSQL",
  async run({ config }) {
    const url = config.databaseUrl;
    if (!url) return { status: "skip", detail: "not used: --database-url is empty (SQLite in the data dir)" };
    const where = describePostgresUrl(url);
    const sql = new PostgresSql(url, { max: 1, connectTimeout: PROBE_TIMEOUT_MS / 1000 });
    try {
      const result = await schemaState(sql, where);
      if (result.status !== "ok") return result;
      // Instances compare times each wrote (leases, links, retries): this machine's clock against PostgreSQL's.
      const clock = await deadline(clockOffset(sql, now), "PostgreSQL's clock");
      if (!clockOff(clock)) return result;
      return {
        status: "warn",
        detail: `${result.detail}; this machine's clock is ${describeClockOffset(clock)}`,
        fix: `sync this machine's clock (NTP: chrony or systemd-timesyncd) and PostgreSQL's; beyond ${MAX_CLOCK_OFFSET_MS / 1000} s, instances reap each other's live leases (reports printed twice) and links expire early or late`,
      };
    } catch (e) {
      return { status: "fail", detail: `PostgreSQL at ${where} is not reachable: ${(e as Error).message}`, fix: CONNECT_FIX };
    } finally {
      await sql.close().catch(() => {});
    }
  },
});

export const databaseCheck = postgresCheck();

/** The server's version and whether reportgen's schema is there (or can be created by this user). */
async function schemaState(sql: PostgresSql, where: string): Promise<Omit<CheckResult, "name">> {
  const row = await deadline(
    sql.get<{ version: string; migrated: boolean; can_create: boolean }>(
      `SELECT current_setting('server_version') AS version, to_regclass('schema_migrations') IS NOT NULL AS migrated,
                  has_schema_privilege(current_schema(), 'CREATE') AS can_create`,
    ),
    `PostgreSQL at ${where}`,
  );
  if (!row) return { status: "fail", detail: `PostgreSQL at ${where} returned no row`, fix: CONNECT_FIX };
  if (!row.migrated) {
    if (!row.can_create)
      return {
        status: "fail",
        detail: `PostgreSQL ${row.version} at ${where}: no reportgen schema yet, and this user cannot create tables`,
        fix: "GRANT CREATE ON SCHEMA public TO the URL's user (the first start creates the tables), or use the database's owner",
      };
    return { status: "ok", detail: `PostgreSQL ${row.version} at ${where}: empty, the first start creates the schema` };
  }
  const m = await deadline(
    sql.get<{ version: number; applied: number }>(
      "SELECT coalesce(max(version), 0)::int AS version, count(*)::int AS applied FROM schema_migrations",
    ),
    "schema_migrations",
  );
  return {
    status: "ok",
    detail: `PostgreSQL ${row.version} at ${where}: schema version ${m?.version ?? 0} (${m?.applied ?? 0} migrations applied; newer ones are applied at start)`,
  };
}

export const storageCheck: Check = {
  name: "bucket",
  async run({ config }) {
    const url = config.storageUrl;
    if (!url) return { status: "skip", detail: "not used: --storage-url is empty (PDFs in the data dir)" };
    const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
    if (!m)
      return { status: "fail", detail: `--storage-url ${url} is not s3://bucket/prefix`, fix: "set --storage-url s3://bucket/prefix" };
    const [, bucket = "", prefix = ""] = m;
    const a = config.s3;
    const fix = `check --storage-url, AWS_ENDPOINT_URL_S3, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION; the key needs s3:PutObject, GetObject and DeleteObject on s3://${bucket}/${prefix}`;
    // Explicit options only, as the service builds its client: Bun would otherwise read S3_*/AWS_* itself.
    const client = new Bun.S3Client({
      bucket,
      accessKeyId: a.accessKeyId,
      secretAccessKey: a.secretAccessKey,
      ...(a.sessionToken ? { sessionToken: a.sessionToken } : {}),
      region: a.region || "us-east-1",
      ...(a.endpoint ? { endpoint: a.endpoint, virtualHostedStyle: false } : {}),
    });
    const key = `${prefix}${prefix && !prefix.endsWith("/") ? "/" : ""}.doctor/${randomUUID()}`;
    const body = `reportgen doctor probe ${new Date().toISOString()}`;
    const t0 = performance.now();
    let step = "put";
    try {
      await deadline(client.write(key, body), "put");
      step = "read";
      const back = await deadline(client.file(key).text(), "read");
      if (back !== body) return { status: "fail", detail: `s3://${bucket}/${key} read back different bytes than were put`, fix };
      step = "delete";
      await deadline(client.delete(key), "delete");
      step = "check the delete";
      if (await deadline(client.exists(key), "exists"))
        return { status: "fail", detail: `s3://${bucket}/${key} is still there after delete`, fix };
      const at = a.endpoint ? ` at ${a.endpoint}` : ` in ${a.region || "us-east-1"}`;
      return {
        status: "ok",
        detail: `s3://${bucket}/${prefix}${at}: a probe object put, read and deleted in ${Math.round(performance.now() - t0)} ms`,
      };
    } catch (e) {
      const err = e as Error & { code?: string };
      return {
        status: "fail",
        detail: `s3://${bucket}/${prefix}: the probe's ${step} failed: ${err.code ? `${err.code}: ` : ""}${err.message}`,
        fix,
      };
    }
  },
};
