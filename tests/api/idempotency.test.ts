// Idempotency-Key on POST /generate-pdf-async and POST /access-keys, over real HTTP on loopback:
// replay of the same request, refusal of a reused key, exactly one creation among concurrent
// duplicates, per-account scope, the 24-hour lifetime, and records that survive a restart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";

const body = { engine: "raw", html_template: "<p>idempotent</p>" };

const reportCount = (t: TestApp) =>
  t.app.services.backend.db!.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM reports").get()!.n;
const keyCount = (t: TestApp) =>
  t.app.services.backend.db!.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM access_keys").get()!.n;

describe("POST /generate-pdf-async with Idempotency-Key", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ listen: true, config: { accountQueueLimit: 1000 } })));
  afterAll(() => t.close());

  const submit = (key: string | undefined, b: unknown = body, apiKey?: string) =>
    t.request("POST", "/api/v1/generate-pdf-async", { body: b, key: apiKey, headers: key === undefined ? {} : { "idempotency-key": key } });

  test("20 concurrent duplicates over HTTP create exactly one report and all get its id", async () => {
    const before = reportCount(t);
    const answers = await Promise.all(Array.from({ length: 20 }, () => submit("dup-20")));
    const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ report_id: string }>));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(202));
    expect(new Set(bodies.map((b) => b.report_id)).size).toBe(1);
    expect(new Set(answers.map((r) => r.headers.get("location"))).size).toBe(1);
    expect(answers.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    expect(reportCount(t)).toBe(before + 1);
  });

  test("the same key and body later get the same response; key order and spacing do not matter", async () => {
    const first = await submit("same-later");
    const { report_id } = (await first.json()) as { report_id: string };
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await submit("same-later", { html_template: body.html_template, engine: "raw" });
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("location")).toBe(`/api/v1/reports/${report_id}`);
    expect(await again.json()).toEqual({ report_id });
    const spaced = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: `{ "engine" : "raw",\n "html_template": "<p>idempotent</p>" }`,
      headers: { "idempotency-key": "same-later" },
    });
    expect(await spaced.json()).toEqual({ report_id });
  });

  test("the same key with a different body, or on another endpoint, is 422 idempotency_key_reused", async () => {
    expect((await submit("reused")).status).toBe(202);
    const before = reportCount(t);
    const other = await submit("reused", { ...body, html_template: "<p>another</p>" });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ error: "idempotency_key_reused" });
    const keys = await t.request("POST", "/api/v1/access-keys", { body: { name: "x" }, headers: { "idempotency-key": "reused" } });
    expect(keys.status).toBe(422);
    expect(((await keys.json()) as { error: string }).error).toBe("idempotency_key_reused");
    expect(reportCount(t)).toBe(before);
  });

  test("keys are per account: another account's identical key and body creates its own report", async () => {
    const mine = (await (await submit("per-account")).json()) as { report_id: string };
    const otherKey = (await t.app.services.keys.createForAccount("globex", "test")).value;
    const theirs = await submit("per-account", body, otherKey);
    expect(theirs.status).toBe(202);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    const { report_id } = (await theirs.json()) as { report_id: string };
    expect(report_id).not.toBe(mine.report_id);
    expect((await t.request("GET", `/api/v1/reports/${report_id}`, { key: otherKey })).status).toBe(200);
    expect((await t.request("GET", `/api/v1/reports/${report_id}`)).status).toBe(404);
  });

  test("a malformed key is 400 invalid_idempotency_key and creates nothing", async () => {
    const before = reportCount(t);
    for (const bad of ["x".repeat(256), "has space", "tab\tkey", "ünïcode"]) {
      const r = await t.app.http!.handle(
        new Request(`${t.baseUrl}/api/v1/generate-pdf-async`, {
          method: "POST",
          headers: { "x-api-key": t.key, "content-type": "application/json", "idempotency-key": bad },
          body: JSON.stringify(body),
        }),
      );
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toBe("invalid_idempotency_key");
    }
    expect(reportCount(t)).toBe(before);
  });

  test("without the header every request creates a report", async () => {
    const a = (await (await submit(undefined)).json()) as { report_id: string };
    const b = (await (await submit(undefined)).json()) as { report_id: string };
    expect(a.report_id).not.toBe(b.report_id);
  });

  test("after 24 hours the key is free again (and the cleanup job removes the record)", async () => {
    const first = (await (await submit("day-old")).json()) as { report_id: string };
    t.app.services.backend.db!.$client.run("UPDATE idempotency_keys SET created_at = created_at - 86400001");
    const again = await submit("day-old");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    const second = (await again.json()) as { report_id: string };
    expect(second.report_id).not.toBe(first.report_id);
    t.app.services.backend.db!.$client.run("UPDATE idempotency_keys SET created_at = created_at - 86400001");
    expect(await t.app.services.idempotency.purgeExpired()).toBeGreaterThan(0);
    expect(t.app.services.backend.db!.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM idempotency_keys").get()!.n).toBe(0);
  });
});

test("a failed request stores nothing: the same key succeeds once the cause is gone", async () => {
  const t = await createTestApp({ config: { accountQueueLimit: 1 } });
  try {
    const first = (await (await t.request("POST", "/api/v1/generate-pdf-async", { body })).json()) as { report_id: string };
    const full = await t.request("POST", "/api/v1/generate-pdf-async", { body, headers: { "idempotency-key": "after-429" } });
    expect(full.status).toBe(429);
    expect((await t.request("DELETE", `/api/v1/reports/${first.report_id}`)).status).toBe(200);
    const retry = await t.request("POST", "/api/v1/generate-pdf-async", { body, headers: { "idempotency-key": "after-429" } });
    expect(retry.status).toBe(202);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
  } finally {
    await t.close();
  }
});

describe("POST /access-keys with Idempotency-Key", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ listen: true })));
  afterAll(() => t.close());

  test("20 concurrent duplicates create exactly one key; every answer carries the same, working value", async () => {
    const before = keyCount(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request("POST", "/api/v1/access-keys", { body: { name: "nightly-export" }, headers: { "idempotency-key": "key-dup-20" } }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { data: string; id: string }[];
    expect(new Set(bodies.map((b) => b.data)).size).toBe(1);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(keyCount(t)).toBe(before + 1);
    expect((await t.request("GET", "/api/v1/reports", { key: bodies[0]!.data })).status).toBe(200);
  });

  test("the stored replay reveals neither the key value nor the Idempotency-Key", async () => {
    const r = await t.request("POST", "/api/v1/access-keys", {
      body: { name: "stored" },
      headers: { "idempotency-key": "secret-idem-key-123" },
    });
    const { data } = (await r.json()) as { data: string };
    const rows = t.app.services.backend
      .db!.$client.query<{ key_hash: string; response: string; fingerprint: string }, []>(
        "SELECT key_hash, response, fingerprint FROM idempotency_keys",
      )
      .all();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(data);
    // The secret is base64url, so it may hold "_" itself: a single fragment could be short enough to occur by chance.
    expect(dump).not.toContain(data.split("_").slice(2).join("_"));
    expect(dump).not.toContain("secret-idem-key-123");
    expect(dump).not.toContain(Buffer.from(data).toString("base64"));
  });
});

test("records survive a restart: the same key and body replay the same report_id", async () => {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-idem-restart-"));
  try {
    const a = await createTestApp({ dir, listen: true });
    const first = (await (
      await a.request("POST", "/api/v1/generate-pdf-async", { body, headers: { "idempotency-key": "across-restart" } })
    ).json()) as { report_id: string };
    await a.close();
    const b = await createTestApp({ dir, listen: true });
    try {
      // The same access key as before the restart: a record belongs to the key that made it.
      const again = await b.request("POST", "/api/v1/generate-pdf-async", {
        key: a.key,
        body,
        headers: { "idempotency-key": "across-restart" },
      });
      expect(again.status).toBe(202);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(await again.json()).toEqual(first);
      expect(reportCount(b)).toBe(1);
    } finally {
      await b.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
