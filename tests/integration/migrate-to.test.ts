// `reportgen migrate-to` on a populated single-machine install: everything is copied into PostgreSQL and
// verified, a second run (or one after an interruption) finishes the job without duplicates, a target
// changed since the copy is refused, and afterwards the old keys and download links work on PostgreSQL.
// A rerun after the source changed: migrate-to-resume.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALL_SCOPES } from "../../src/app/modules";
import { openBackend } from "../../src/db/open";
import { createTestApp, type TestApp } from "../helpers/app";
import { usePostgres } from "../helpers/postgres";
import { runCli, sourceCommand } from "../helpers/process";
import { useS3 } from "../helpers/s3";
import { fail, submit, succeed } from "../helpers/scenario";
import { makePki, P12_PASSWORD } from "../helpers/signing";

const pg = usePostgres();
const s3 = useS3();
let single: TestApp;
let url = "";
let link = "";
let reportIds: string[] = [];
let otherKey = "";
/** An asset's bytes: copied into the bucket by migrate-to --storage-url, and served from there afterwards. */
const ASSET = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
let assetId = "";
let identityId = "";

beforeAll(async () => {
  url = await pg().createDatabase();
  single = await createTestApp();
  otherKey = (await single.app.services.keys.createForAccount("beta", "second")).value;
  const a = await submit(single);
  const b = await submit(single);
  const c = await submit(single, { engine: "raw", html_template: "<p>w</p>", webhook: { url: "https://example.com/hook" } });
  await submit(single); // stays queued
  await succeed(single, a);
  await fail(single, c, "template_error", "boom");
  await single.app.services.webhookSecrets.get((await single.app.services.keyAuth.authenticate(single.key))!.accountId);
  reportIds = [a, b, c];
  link = ((await (await single.request("GET", `/api/v1/reports/${a}/download`)).json()) as { data: string }).data;
  await single.request("POST", "/api/v1/generate-pdf-async", {
    body: { engine: "raw", html_template: "<p>i</p>" },
    headers: { "idempotency-key": "k1" },
  });
  const tpl = (await (
    await single.request("POST", "/api/v1/templates", { body: { name: "Invoice", engine: "raw", html_template: "<p>v1</p>" } })
  ).json()) as { template_id: string };
  await single.request("POST", `/api/v1/templates/${tpl.template_id}/versions`, { body: { html_template: "<p>v2</p>" } });
  // The asset library: its row is copied like any table, its bytes (data dir) into the bucket.
  const up = await single.request("POST", "/api/v1/assets", {
    body: { name: "logo.png", content_base64: Buffer.from(ASSET).toString("base64") },
  });
  assetId = ((await up.json()) as { data: { id: string } }).data.id;
  // A deleted report still counts in the usage roll-up: the target's own triggers cannot know of it, so
  // the copy must carry usage_daily over as the source has it (the checksum verifies that).
  const gone = await submit(single);
  expect((await single.request("DELETE", `/api/v1/reports/${gone}`)).status).toBeLessThan(300);
  // Access control's tables and columns travel too: a rotation pending (the old value keeps working for
  // an hour), a quota, counter rows and audit events.
  const me = (await single.app.services.keyAuth.authenticate(single.key))!;
  await single.app.services.keys.setQuota(me.keyId, me.accountId, 1000, { kind: "cli", accountId: me.accountId }, ALL_SCOPES);
  await single.app.services.keys.rotate(me.keyId, me.accountId, 3600, { kind: "cli", accountId: me.accountId }, ALL_SCOPES);
  // A signing identity: its sealed key must still open on PostgreSQL (the link secret travels with it).
  const pki = makePki(mkdtempSync(join(tmpdir(), "rg-migrate-pki-")));
  const identity = await single.request("POST", "/api/v1/signing-identities", {
    body: { name: "s", p12_base64: pki.selfSigned, password: P12_PASSWORD },
  });
  identityId = ((await identity.json()) as { identity_id: string }).identity_id;
  rmSync(pki.dir, { recursive: true, force: true });
  // The source server is stopped before the copy, as the README says.
  await single.app.stop();
}, 60_000);

afterAll(() => rmSync(single.dir, { recursive: true, force: true }));

const migrateTo = () => runCli(sourceCommand, ["migrate-to", "--data-dir", single.dir, "--database-url", url]);

test("copies every table and verifies counts and checksums; a second run copies nothing and verifies again", () => {
  const first = migrateTo();
  expect(first.stderr).toContain("copied and verified");
  expect(first.code).toBe(0);
  expect(first.stderr).toMatch(/reports: 5 row\(s\) copied/);
  expect(first.stderr).toMatch(/access_keys: 2 row\(s\) copied/);
  expect(first.stderr).toMatch(/webhook_deliveries: 1 row\(s\) copied/);
  expect(first.stderr).toMatch(/templates: 1 row\(s\) copied/);
  expect(first.stderr).toMatch(/template_versions: 2 row\(s\) copied/);
  expect(first.stderr).toMatch(/usage_daily: \d+ row\(s\) copied/);
  expect(first.stderr).toMatch(/key_daily_counts: 1 row\(s\) copied/);
  expect(first.stderr).toMatch(/assets: 1 row\(s\) copied/);
  expect(first.stderr).toMatch(/audit_events: 8 row\(s\) copied/); // 2 keys created, 1 updated, 1 rotated; a template and its version 2; an asset; an identity
  expect(first.stderr).toMatch(/signing_identities: 1 row\(s\) copied/);
  const again = migrateTo();
  expect(again.code).toBe(0);
  expect(again.stderr).toMatch(/reports: 0 row\(s\) copied/);
  expect(again.stderr).toContain("copied and verified");
}, 60_000);

test("resumable: rows missing from the target (an interrupted run) are copied by the next run", async () => {
  const target = await openBackend({ dataDir: single.dir, databaseUrl: url });
  try {
    // A run cut short wrote neither these rows nor their ledger entries (one transaction writes both).
    await target.sql.run(
      `DELETE FROM migrate_to_copied WHERE row_key = $1 OR row_key IN (SELECT id FROM webhook_deliveries WHERE report_id = $1)`,
      [reportIds[2]],
    );
    expect(await target.sql.run("DELETE FROM reports WHERE id = $1", [reportIds[2]])).toBe(1); // and its webhook rows (cascade)
  } finally {
    await target.close();
  }
  const r = migrateTo();
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/reports: 1 row\(s\) copied/);
  expect(r.stderr).toMatch(/report_webhooks: 1 row\(s\) copied/);
}, 60_000);

test("a target that differs from the source is refused, naming the table", async () => {
  const target = await openBackend({ dataDir: single.dir, databaseUrl: url });
  try {
    await target.sql.run("UPDATE accounts SET name = 'tampered' WHERE name = 'beta'");
    const r = migrateTo();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\(accounts acc_\w+: changed there\)/);
    // A refusal, not a crash: one line saying why; no stack trace, source lines or runtime banner.
    const lines = r.stderr.trim().split("\n");
    expect(lines.at(-1)).toStartWith("reportgen: 1 row(s) in PostgreSQL changed since migrate-to copied them (accounts");
    expect(lines.filter((l) => !l.startsWith("migrate-to: ") && !l.startsWith("reportgen: "))).toEqual([]);
    expect(r.stderr).not.toMatch(/\bat .*:\d+:\d+|Bun v\d|\^/);
    await target.sql.run("UPDATE accounts SET name = 'beta' WHERE name = 'tampered'");
  } finally {
    await target.close();
  }
}, 60_000);

test("afterwards, on PostgreSQL: the old keys authenticate, the old link opens, the reports read the same", async () => {
  const cluster = await createTestApp({ dir: single.dir, config: { databaseUrl: url } });
  try {
    for (const key of [single.key, otherKey]) expect((await cluster.request("GET", "/api/v1/reports", { key })).status).toBe(200);
    const list = (await (await cluster.request("GET", "/api/v1/reports?limit=100", { key: single.key })).json()) as {
      data: { report_id: string; status: string }[];
    };
    const status = Object.fromEntries(list.data.map((r) => [r.report_id, r.status]));
    expect(status[reportIds[0]!]).toBe("succeeded");
    expect(status[reportIds[1]!]).toBe("queued");
    expect(status[reportIds[2]!]).toBe("failed");
    const u = new URL(link);
    const pdf = await cluster.app.http.handle(new Request(`http://localhost${u.pathname}${u.search}`));
    expect(pdf.status).toBe(200);
    // The idempotency key is replayed from the copied record.
    const replay = await cluster.request("POST", "/api/v1/generate-pdf-async", {
      key: single.key,
      body: { engine: "raw", html_template: "<p>i</p>" },
      headers: { "idempotency-key": "k1" },
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    // The signing identity is there, and its sealed key opens.
    expect((await cluster.request("GET", `/api/v1/signing-identities/${identityId}`, { key: single.key })).status).toBe(200);
    expect((await cluster.app.services.signing.key(identityId))?.name).toBe("Muster GmbH Signer");
  } finally {
    await cluster.close();
  }
}, 60_000);

test("a --storage-url whose bucket does not exist is refused in one line before a row is copied", async () => {
  const fresh = await pg().createDatabase();
  const aws = { AWS_ENDPOINT_URL_S3: s3().directEndpoint, AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s", AWS_REGION: "us-east-1" };
  const saved = { ...process.env };
  Object.assign(process.env, aws);
  try {
    const r = runCli(sourceCommand, [
      "migrate-to",
      "--data-dir",
      single.dir,
      "--database-url",
      fresh,
      "--storage-url",
      "s3://no-such-bucket/x/",
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^reportgen: the bucket of --storage-url s3:\/\/no-such-bucket\/x\/ does not take a write and its removal \(.*NoSuchBucket/,
      ),
    ]);
    const target = await openBackend({ dataDir: single.dir, databaseUrl: fresh }, { migrate: false });
    try {
      expect((await target.sql.get<{ n: number }>("SELECT count(*)::int AS n FROM accounts"))?.n).toBe(0);
    } finally {
      await target.close();
    }
  } finally {
    process.env = saved;
  }
}, 60_000);

test("with --storage-url: the PDFs go into the bucket, each read back by its SHA-256; a rerun finds them there; the old link opens on PostgreSQL + S3", async () => {
  // runCli blocks this process until the command ends: it talks to moto directly, not through the test's proxy.
  const aws = { AWS_ENDPOINT_URL_S3: s3().directEndpoint, AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s", AWS_REGION: "us-east-1" };
  const saved = { ...process.env };
  Object.assign(process.env, aws);
  try {
    const storageUrl = `s3://${s3().bucket}/moved/`;
    // A fresh target: the database above is in use since the last test started an App on it.
    const fresh = await pg().createDatabase();
    const args = ["migrate-to", "--data-dir", single.dir, "--database-url", fresh, "--storage-url", storageUrl];
    const first = runCli(sourceCommand, args);
    expect(first.stderr).toContain("1 PDF(s) copied");
    expect(first.stderr).toContain("1 asset(s) copied");
    expect(first.code).toBe(0);
    const again = runCli(sourceCommand, args);
    expect(again.stderr).toContain("0 PDF(s) copied");
    expect(again.stderr).toContain("1 already there");
    const cluster = await createTestApp({
      dir: single.dir,
      config: {
        databaseUrl: fresh,
        storageUrl,
        s3: { endpoint: s3().endpoint, accessKeyId: "k", secretAccessKey: "s", sessionToken: "", region: "us-east-1" },
      },
    });
    try {
      const u = new URL(link);
      const pdf = await cluster.app.http.handle(new Request(`http://localhost${u.pathname}${u.search}`));
      expect(pdf.status).toBe(200);
      expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
      const asset = await cluster.request("GET", `/api/v1/assets/${assetId}/content`, { key: single.key });
      expect(asset.status).toBe(200);
      expect(new Uint8Array(await asset.arrayBuffer())).toEqual(ASSET);
    } finally {
      await cluster.close();
    }
  } finally {
    for (const k of Object.keys(aws)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}, 60_000);

test("an empty --database-url or a data dir without a database is a usage error", () => {
  expect(runCli(sourceCommand, ["migrate-to", "--data-dir", single.dir]).code).toBe(2);
  expect(runCli(sourceCommand, ["migrate-to", "--data-dir", `${single.dir}/nowhere`, "--database-url", url]).code).toBe(2);
});
