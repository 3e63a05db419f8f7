// `migrate-to` after the source has changed (issue 49 item 6): the source is the truth until the switch.
// A copy is cut short (a table fails on the target), then the single-machine server
// runs again: keys are used (last_used_at moves), reports are submitted, finished and deleted, an asset
// is replaced under the same name. A rerun brings all of it over and the target equals the source in
// every table and column. A row changed on the target since it was copied is refused, naming the row
// and what to do, and nothing is written; once it is as copied again, the rerun goes through.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openBackend } from "../../src/db/open";
import { createTestApp, type TestApp } from "../helpers/app";
import { usePostgres } from "../helpers/postgres";
import { runCli, sourceCommand } from "../helpers/process";
import { submit, succeed } from "../helpers/scenario";
import { sqliteShapes, tableChecksums } from "../helpers/table-checksums";

const pg = usePostgres();
let dir = "";
let url = "";
let key = "";
const kept: string[] = [];
let doomed = "";

const png = (n: number) => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, n, n, n]).toString("base64");
const upload = (t: TestApp, n: number) =>
  t.request("POST", "/api/v1/assets", { body: { name: "logo.png", content_base64: png(n) } }).then(async (r) => {
    expect(r.status).toBe(201);
    return ((await r.json()) as { data: { id: string } }).data.id;
  });

beforeAll(async () => {
  url = await pg().createDatabase();
  const single = await createTestApp();
  dir = single.dir;
  key = single.key;
  for (let i = 0; i < 3; i++) kept.push(await submit(single));
  await succeed(single, kept[0]!);
  doomed = await submit(single);
  expect((await single.request("GET", "/api/v1/webhook-secret")).status).toBe(200); // makes the account's secret
  await upload(single, 1);
  await single.app.stop();
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const migrateTo = () => runCli(sourceCommand, ["migrate-to", "--data-dir", dir, "--database-url", url]);

/** Runs `fn` against the single-machine install's database (its server stopped), or the target's. */
async function on<T>(databaseUrl: string, fn: (b: Awaited<ReturnType<typeof openBackend>>) => Promise<T>): Promise<T> {
  const b = await openBackend({ dataDir: dir, databaseUrl });
  try {
    return await fn(b);
  } finally {
    await b.close();
  }
}
const onSource = <T>(fn: Parameters<typeof on<T>>[1]) => on("", fn);
const onTarget = <T>(fn: Parameters<typeof on<T>>[1]) => on(url, fn);

/** Target and source hold the same values in every table and column the source has. */
async function expectEqual(): Promise<void> {
  const shapes = await onSource((b) => sqliteShapes(b.sql));
  expect(await onTarget((b) => tableChecksums(b.sql, shapes))).toEqual(await onSource((b) => tableChecksums(b.sql, shapes)));
}

/** The single-machine server again for a while: `fn` uses it, then it stops. */
async function serveAgain(fn: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await createTestApp({ dir }); // also creates another key: a new row
  try {
    await fn(t);
  } finally {
    await t.app.stop();
  }
}

test("after a partial copy the source server ran again: the rerun brings changed, new and deleted rows over", async () => {
  // A run cut short at webhook_secrets (here by a trigger on the target that fails its insert): the
  // tables before it (reports among them) are copied, it and the usage roll-up after it are not.
  await onTarget(async (b) => {
    await b.sql.run("CREATE FUNCTION cut_short() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'cut short'; END $$");
    await b.sql.run("CREATE TRIGGER cut_short BEFORE INSERT ON webhook_secrets FOR EACH STATEMENT EXECUTE FUNCTION cut_short()");
  });
  const first = migrateTo();
  expect(first.code).toBe(1);
  expect(first.stderr).toContain("cut short");
  await onTarget(async (b) => {
    await b.sql.run("DROP TRIGGER cut_short ON webhook_secrets");
    expect(await b.sql.get<{ n: number }>("SELECT count(*) AS n FROM reports")).toEqual({ n: 4 });
    expect(await b.sql.get<{ n: number }>("SELECT count(*) AS n FROM webhook_secrets")).toEqual({ n: 0 });
  });
  const lastUsed = () => onSource((b) => b.sql.get<{ t: number }>("SELECT max(last_used_at) AS t FROM access_keys"));
  const before = await lastUsed();
  await serveAgain(async (t) => {
    expect((await t.request("GET", "/api/v1/reports", { key })).status).toBe(200); // the old key: last_used_at moves
    kept.push(await submit(t));
    await succeed(t, kept[1]!);
    expect((await t.request("DELETE", `/api/v1/reports/${doomed}`)).status).toBeLessThan(300);
    // The asset replaced under the same (unique) name: the old row must leave the target first.
    const old = ((await (await t.request("GET", "/api/v1/assets")).json()) as { data: { id: string }[] }).data[0]!.id;
    expect((await t.request("DELETE", `/api/v1/assets/${old}`)).status).toBe(200);
    await upload(t, 2);
  });
  expect((await lastUsed())!.t).toBeGreaterThan(before!.t ?? 0);

  const again = migrateTo();
  expect(again.stderr).toContain("copied and verified");
  expect(again.code).toBe(0);
  expect(again.stderr).toMatch(/access_keys: 2 row\(s\) copied \(1 updated\)/); // the new key; the old one's last_used_at
  expect(again.stderr).toMatch(/reports: 2 row\(s\) copied \(1 updated\), 1 deleted/); // new; succeeded since; deleted
  expect(again.stderr).toMatch(/webhook_secrets: 1 row\(s\) copied/); // where the first run stopped
  expect(again.stderr).toMatch(/assets: 1 row\(s\) copied, 1 deleted/);
  await expectEqual();

  const still = migrateTo();
  expect(still.code).toBe(0);
  expect(still.stderr).toMatch(/reports: 0 row\(s\) copied\n/);
}, 120_000);

test("a row changed or added on the target since the copy is refused, naming it and what to do; nothing is written", async () => {
  const ids = await onTarget(async (b) => {
    const k = (await b.sql.get<{ id: string; account_id: string }>("SELECT id, account_id FROM access_keys ORDER BY id LIMIT 1"))!;
    await b.sql.run("UPDATE access_keys SET name = 'renamed on the cluster' WHERE id = $1", [k.id]);
    await b.sql.run(
      "INSERT INTO audit_events (id, account_id, type, actor, created_at) VALUES ('evt_on_the_cluster', $1, 'key.created', 'cli', 1)",
      [k.account_id],
    );
    return k;
  });
  let added = "";
  await serveAgain(async (t) => {
    added = await submit(t);
  });
  const refused = migrateTo();
  expect(refused.code).toBe(1);
  const line = refused.stderr.trim().split("\n").at(-1)!;
  expect(line).toStartWith("reportgen: 2 row(s) in PostgreSQL changed since migrate-to copied them");
  expect(line).toContain(`access_keys ${ids.id}: changed there`);
  expect(line).toContain("audit_events evt_on_the_cluster: added there");
  expect(line).toContain("do not run migrate-to again");
  expect(line).toContain("copy into an empty database");
  expect(await onTarget((b) => b.sql.get("SELECT id FROM reports WHERE id = $1", [added]))).toBeUndefined();

  // As copied again: the rerun goes through.
  await onTarget(async (b) => {
    await b.sql.run("DELETE FROM audit_events WHERE id = 'evt_on_the_cluster'");
    await b.sql.run("UPDATE access_keys SET name = 'test' WHERE id = $1", [ids.id]);
  });
  const after = migrateTo();
  expect(after.stderr).toContain("copied and verified");
  expect(after.code).toBe(0);
  await expectEqual();
}, 120_000);

test("a target copied by a reportgen that kept no ledger: rows equal to the source's are recorded, one that differs is refused", async () => {
  await onTarget((b) => b.sql.run("DROP TABLE migrate_to_copied"));
  const recorded = migrateTo();
  expect(recorded.stderr).toContain("copied and verified");
  expect(recorded.code).toBe(0);
  const count = (sql: string) => (b: Awaited<ReturnType<typeof openBackend>>) => b.sql.get<{ n: number }>(sql);
  expect(await onTarget(count("SELECT count(*) AS n FROM migrate_to_copied WHERE table_name = 'reports'"))).toEqual(
    await onSource(count("SELECT count(*) AS n FROM reports")),
  );

  await onTarget((b) => b.sql.run("DROP TABLE migrate_to_copied"));
  await serveAgain(async (t) => {
    expect((await t.request("GET", "/api/v1/reports", { key })).status).toBe(200); // last_used_at moves
  });
  const refused = migrateTo();
  expect(refused.code).toBe(1);
  const line = refused.stderr.trim().split("\n").at(-1)!;
  expect(line).toMatch(/^reportgen: \d+ row\(s\) in PostgreSQL differ from the source \(access_keys /);
  expect(line).toContain("keeps no record of what was copied into it");
  expect(line).toContain("Copy into an empty database");
}, 120_000);
