// Storage faults met by request handlers and the cleanup job, in-process: real SQLite errors
// (SQLITE_FULL through max_page_count, SQLITE_READONLY through query_only) and a disk below the
// free-space reserve. The real full and read-only filesystem is tests/process/storage.test.ts.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { createTestApp, type TestApp } from "../helpers/app";

const raw = { engine: "raw", html_template: "<p>hi</p>" };
let t: TestApp;
afterEach(() => t.close());

async function until(cond: () => Promise<boolean>, ms = 10_000): Promise<number> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error("condition not met in time");
    await Bun.sleep(50);
  }
  return Date.now() - t0;
}

const submit = () => t.request("POST", "/api/v1/generate-pdf-async", { body: raw });

describe("below the free-space reserve", () => {
  beforeEach(async () => {
    t = await createTestApp({ config: { minFreeSpace: 2 ** 60 } });
  });

  test("submissions get 507 storage_full with Retry-After; reads keep working; /readyz and /metrics say why", async () => {
    const res = await submit();
    expect(res.status).toBe(507);
    expect(res.headers.get("retry-after")).toBe("10");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe("storage_full");
    expect(body.message).toContain("disk is full");
    expect((await t.request("GET", "/api/v1/reports")).status).toBe(200);
    const ready = await t.request("GET", "/readyz", { key: null });
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as any).checks.disk.state).toBe("low");
    const metrics = await (await t.request("GET", "/metrics", { key: null })).text();
    expect(metrics).toContain("\nreportgen_storage_ok 0\n");
  });
});

describe("SQLite refuses the write", () => {
  beforeEach(async () => {
    t = await createTestApp();
  });

  test("SQLITE_FULL on insert: 507 (not 500), nothing stored, accepted again once the database can grow", async () => {
    const db = t.app.services.backend.db!.$client;
    expect((await submit()).status).toBe(202);
    const pages = db.query<{ page_count: number }, []>("PRAGMA page_count").get()!.page_count;
    db.exec(`PRAGMA max_page_count = ${pages}`);
    const big = { engine: "raw", html_template: `<p>${"x".repeat(200_000)}</p>` };
    const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: big });
    expect(res.status).toBe(507);
    expect(((await res.json()) as { error: string }).error).toBe("storage_full");
    // Now known: refused up front, before touching the database.
    expect((await submit()).status).toBe(507);
    const list = (await (await t.request("GET", "/api/v1/reports")).json()) as { data: unknown[] };
    expect(list.data.length).toBe(1);
    db.exec("PRAGMA max_page_count = 4294967294");
    const ms = await until(async () => (await submit()).status === 202);
    expect(ms).toBeLessThan(5_000);
  });

  test("read-only database: 503 storage_unavailable; recovers by itself", async () => {
    const db = t.app.services.backend.db!.$client;
    db.exec("PRAGMA query_only = ON");
    const res = await submit();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("10");
    expect(((await res.json()) as { error: string }).error).toBe("storage_unavailable");
    expect((await t.request("GET", "/api/v1/reports")).status).toBe(200);
    db.exec("PRAGMA query_only = OFF");
    await until(async () => (await submit()).status === 202);
  });

  test("the cleanup job never throws on a storage fault, and still frees the space of expired PDFs", async () => {
    const repo = t.app.services.repos.reports;
    const id = crypto.randomUUID();
    const account = (await t.app.services.keyAuth.authenticate(t.key))!.accountId;
    await repo.insert({
      id,
      accountId: account,
      engine: "raw",
      template: "<p>x</p>",
      data: null,
      options: null,
      createdAt: Date.now() - 10_000,
    });
    const [claimed] = await t.app.services.repos.queue.claim(Date.now(), 60_000);
    const done = {
      id,
      attempt: claimed!.attempts,
      sizeBytes: 10,
      pageCount: 1,
      finishedAt: Date.now() - 5_000,
      expiresAt: Date.now() - 1_000,
    };
    await t.app.services.repos.queue.succeed(done);
    writeFileSync(t.app.services.spool.pathOf(id), "%PDF-1.4\n%%EOF\n");
    t.app.services.backend.db!.$client.exec("PRAGMA query_only = ON");
    const r = await t.app.cleanup();
    expect(r.storageFault).toBe("read_only");
    expect(existsSync(t.app.services.spool.pathOf(id))).toBe(false);
    expect((await repo.getForDownload(id))!.status).toBe("succeeded"); // marked by the next run
    t.app.services.backend.db!.$client.exec("PRAGMA query_only = OFF");
    expect(await t.app.cleanup()).toEqual({ expired: 1, orphansRemoved: 0 });
    expect((await repo.getForDownload(id))!.status).toBe("expired");
  });
});
