// doctor's PostgreSQL and bucket checks against a real PostgreSQL 15 (Debian's binaries, a throw-away
// cluster) and a real S3 API (moto_server): they pass on a usable backend, name the schema version, and
// fail with the fix on an unreachable server, a database the user cannot create tables in, or a
// missing bucket. The checks are called directly with the settings --database-url / --storage-url
// (and AWS_*) produce, and the bucket once through the CLI.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseCheck, postgresCheck, storageCheck } from "../../src/cli/doctor-backends";
import type { DoctorContext } from "../../src/cli/doctor-types";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/settings";
import { clockOff, clockOffset, describeClockOffset, MAX_CLOCK_OFFSET_MS, warnIfClockOff } from "../../src/db/clock";
import { PostgresSql } from "../../src/db/postgres";
import { createLogger } from "../../src/lib/logger";
import { freePort, sourceCommand } from "../helpers/process";

const PG_BIN = process.env.REPORTGEN_TEST_PG_BIN ?? "/usr/lib/postgresql/15/bin";
const MOTO = process.env.REPORTGEN_TEST_MOTO_SERVER ?? "moto_server";
const hasPg = Bun.which(join(PG_BIN, "initdb")) !== null;
const hasMoto = Bun.which(MOTO) !== null;
if (!hasPg) console.error(`SKIP doctor's PostgreSQL check: no initdb in ${PG_BIN} (scripts/setup installs postgresql)`);
if (!hasMoto) console.error(`SKIP doctor's bucket check: ${MOTO} is not installed`);

const work = mkdtempSync(join(tmpdir(), "reportgen-doctor-backends-"));
const root = process.getuid?.() === 0;
/** PostgreSQL refuses to run as root: as root its commands run as the postgres user. */
const asPg = (cmd: string[]) => (root ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd);
let pgUrl = "";
let motoProc: ReturnType<typeof Bun.spawn> | undefined;
let motoUrl = "";

beforeAll(async () => {
  if (hasPg) {
    if (root) chownSync(work, Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim()), 0);
    const port = await freePort();
    const init = Bun.spawnSync(asPg([join(PG_BIN, "initdb"), "-A", "trust", "-U", "postgres", "-D", join(work, "pg")]));
    expect(init.exitCode, init.stderr.toString()).toBe(0);
    const opts = `-p ${port} -k ${work} -c listen_addresses=127.0.0.1`;
    const start = Bun.spawnSync(
      asPg([join(PG_BIN, "pg_ctl"), "-D", join(work, "pg"), "-o", opts, "-l", join(work, "pg.log"), "-w", "start"]),
    );
    expect(start.exitCode, start.stderr.toString()).toBe(0);
    pgUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    // A user that may connect but not create tables, for the privilege check.
    const sql = new PostgresSql(pgUrl);
    await sql.run("CREATE ROLE reader LOGIN");
    await sql.run("CREATE DATABASE locked OWNER postgres");
    await sql.close();
    const locked = new PostgresSql(`postgres://postgres@127.0.0.1:${port}/locked`);
    await locked.run("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
    await locked.close();
  }
  if (hasMoto) {
    const port = await freePort();
    motoProc = Bun.spawn([MOTO, "-H", "127.0.0.1", "-p", String(port)], { stdout: "ignore", stderr: "ignore" });
    motoUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        await fetch(motoUrl);
        break;
      } catch {
        if (i > 200) throw new Error("moto_server did not start");
        await Bun.sleep(50);
      }
    }
    // moto creates a bucket on a plain PUT (it checks no signature).
    expect((await fetch(`${motoUrl}/reports`, { method: "PUT" })).status).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  if (hasPg) Bun.spawnSync(asPg([join(PG_BIN, "pg_ctl"), "-D", join(work, "pg"), "-m", "immediate", "stop"]));
  motoProc?.kill();
  await motoProc?.exited;
  rmSync(work, { recursive: true, force: true });
});

function ctx(extra: Record<string, unknown>): DoctorContext {
  return { config: { ...loadConfig({}, {}), ...extra } as Config, logger: createLogger("error"), tmp: work, results: new Map() };
}

test("with neither setting, both lines say they are not used", async () => {
  expect(await databaseCheck.run(ctx({}))).toMatchObject({ status: "skip", detail: expect.stringContaining("SQLite in the data dir") });
  expect(await storageCheck.run(ctx({}))).toMatchObject({ status: "skip", detail: expect.stringContaining("PDFs in the data dir") });
});

test.skipIf(!hasPg)(
  "PostgreSQL's clock: this machine's agrees; one 60 s off is named by doctor and by the warning serve logs at start",
  async () => {
    const sql = new PostgresSql(pgUrl);
    try {
      const same = await clockOffset(sql);
      expect(Math.abs(same.offsetMs)).toBeLessThan(250);
      expect(clockOff(same)).toBe(false);
      const ahead = await clockOffset(sql, () => Date.now() + 60_000);
      expect(ahead.offsetMs).toBeGreaterThan(-60_250);
      expect(ahead.offsetMs).toBeLessThan(-59_750);
      expect(clockOff(ahead)).toBe(true);
      expect(describeClockOffset(ahead)).toBe("60.0 s ahead of PostgreSQL's");
      expect(describeClockOffset(await clockOffset(sql, () => Date.now() - 3_000))).toBe("3.0 s behind PostgreSQL's");
      // Just inside the limit is no warning; the round trip's share counts in the clock's favour.
      expect(clockOff(await clockOffset(sql, () => Date.now() + MAX_CLOCK_OFFSET_MS - 300))).toBe(false);

      const warned: { msg: string; fields: unknown }[] = [];
      const base = createLogger("error");
      const logger = { ...base, warn: (msg: string, fields?: unknown) => void warned.push({ msg, fields }) } as typeof base;
      await warnIfClockOff(sql, logger);
      expect(warned).toEqual([]);
      await warnIfClockOff(sql, logger, () => Date.now() - 10_000);
      expect(warned).toHaveLength(1);
      expect(warned[0]!.msg).toStartWith("this machine's clock is 10.0 s behind PostgreSQL's: sync it (NTP)");
      expect(warned[0]!.fields).toMatchObject({ limit_ms: MAX_CLOCK_OFFSET_MS });
    } finally {
      await sql.close();
    }
    const skewed = await postgresCheck(() => Date.now() + 60_000).run(ctx({ databaseUrl: pgUrl }));
    expect(skewed.status).toBe("warn");
    expect(skewed.detail).toMatch(
      /^PostgreSQL 15\.\d+.* at 127\.0\.0\.1:\d+\/postgres: .*; this machine's clock is 60\.0 s ahead of PostgreSQL's$/,
    );
    expect(skewed.fix).toContain("NTP");
    expect((await databaseCheck.run(ctx({ databaseUrl: pgUrl }))).status).toBe("ok");
  },
);

test.skipIf(!hasPg)(
  "PostgreSQL: an empty database, then a migrated one (its schema version), then wrong ones fail with the fix",
  async () => {
    const empty = await databaseCheck.run(ctx({ databaseUrl: pgUrl }));
    expect(empty.status).toBe("ok");
    expect(empty.detail).toMatch(/^PostgreSQL 15\.\d+.* at 127\.0\.0\.1:\d+\/postgres: empty, the first start creates the schema$/);

    const sql = new PostgresSql(pgUrl);
    await sql.run("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
    await sql.run("INSERT INTO schema_migrations VALUES (1, '0001_init', 0), (2, '0002_next', 0)");
    await sql.close();
    const migrated = await databaseCheck.run(ctx({ databaseUrl: pgUrl }));
    expect(migrated.status).toBe("ok");
    expect(migrated.detail).toContain("schema version 2 (2 migrations applied");

    const port = await freePort();
    const down = await databaseCheck.run(ctx({ databaseUrl: `postgres://postgres:secret@127.0.0.1:${port}/postgres` }));
    expect(down.status).toBe("fail");
    expect(down.detail).toContain(`PostgreSQL at 127.0.0.1:${port}/postgres is not reachable`);
    expect(down.detail).not.toContain("secret");
    expect(down.fix).toContain("--database-url");

    const readOnly = await databaseCheck.run(ctx({ databaseUrl: pgUrl.replace("postgres@", "reader@").replace(/postgres$/, "locked") }));
    expect(readOnly.status).toBe("fail");
    expect(readOnly.detail).toContain("this user cannot create tables");
    expect(readOnly.fix).toContain("GRANT CREATE ON SCHEMA public");
  },
  60_000,
);

test.skipIf(!hasMoto)("bucket: a probe object is put, read and deleted; a missing bucket fails with the fix", async () => {
  const s3 = { endpoint: motoUrl, accessKeyId: "test", secretAccessKey: "test", sessionToken: "", region: "us-east-1" };
  const ok = await storageCheck.run(ctx({ storageUrl: "s3://reports/pdfs/", s3 }));
  expect(ok.status).toBe("ok");
  expect(ok.detail).toMatch(new RegExp(`^s3://reports/pdfs/ at ${motoUrl}: a probe object put, read and deleted in \\d+ ms$`));
  // Nothing is left in the bucket.
  const listed = await new Bun.S3Client({ bucket: "reports", endpoint: motoUrl, accessKeyId: "t", secretAccessKey: "t" }).list();
  expect(listed.contents ?? []).toEqual([]);

  const missing = await storageCheck.run(ctx({ storageUrl: "s3://no-such-bucket/", s3 }));
  expect(missing.status).toBe("fail");
  expect(missing.detail).toContain("s3://no-such-bucket/: the probe's put failed");
  expect(missing.fix).toContain("AWS_ACCESS_KEY_ID");
});

test.skipIf(!hasMoto)(
  "through the CLI: --storage-url and the AWS_* variables reach the bucket line",
  () => {
    const env = {
      ...process.env,
      AWS_ENDPOINT_URL_S3: motoUrl,
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
      REPORTGEN_LOG_LEVEL: "warn",
    };
    const args = ["doctor", "--json", "--data-dir", join(work, "cli-data"), "--port", "0"];
    const run = (storage: string) => {
      const p = Bun.spawnSync([...sourceCommand, ...args, "--storage-url", storage], { env, cwd: work });
      const checks = JSON.parse(p.stdout.toString()).checks as { name: string; status: string; detail: string; fix?: string }[];
      return { code: p.exitCode, bucket: checks.find((c) => c.name === "bucket") };
    };
    const ok = run("s3://reports/cli");
    expect(ok.bucket).toMatchObject({ status: "ok", detail: expect.stringContaining("s3://reports/cli/ at ") });
    const missing = run("s3://absent-bucket/");
    expect(missing.code).toBe(1);
    expect(missing.bucket?.status).toBe("fail");
    expect(missing.bucket?.fix).toContain("--storage-url");
  },
  60_000,
);
