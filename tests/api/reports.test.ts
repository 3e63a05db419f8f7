// GET/DELETE /api/v1/reports/{reportID} and GET /api/v1/reports: the report's JSON, account
// isolation, listing order, cursor pagination and the status filter.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { createTestApp, type TestApp } from "../helpers/app";
import { claim, EJS, expectError, expectValidation, expire, fail, RAW, submit, succeed, UUID_RE } from "../helpers/scenario";

type ReportJson = {
  report_id: string;
  status: string;
  engine: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
  attempts: number;
  size_bytes: number | null;
  page_count: number | null;
  error: { code: string; message: string } | null;
};
type Page = { data: ReportJson[]; next_cursor: string | null };

// One App at a time per process: each top-level describe owns its app.
let t: TestApp;
let otherKey: string;
async function open() {
  t = await createTestApp();
  otherKey = (await t.app.services.keys.createForAccount("other", "k")).value;
}

async function getReport(id: string, key?: string): Promise<ReportJson> {
  const res = await t.request("GET", `/api/v1/reports/${id}`, { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: ReportJson }).data;
}

async function listPage(query: string, key?: string): Promise<Page> {
  const res = await t.request("GET", `/api/v1/reports${query}`, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

/** Walks every page with `limit`, returning the pages. */
async function walk(limit: number, extra = "", key?: string): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const q: string = `?limit=${limit}${extra}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page = await listPage(q, key);
    pages.push(page);
    cursor = page.next_cursor;
    if (pages.length > 100) throw new Error("pagination does not end");
  } while (cursor);
  return pages;
}

const isoOrNull = (v: string | null) => v === null || new Date(v).toISOString() === v;

describe("GET /reports/{reportID}", () => {
  beforeAll(open);
  afterAll(() => t.close());
  test("a queued report: exact fields and values", async () => {
    const before = Date.now();
    const id = await submit(t, EJS);
    const r = await getReport(id);
    expect(Object.keys(r).sort()).toEqual([
      "attempts",
      "created_at",
      "e_invoice",
      "engine",
      "error",
      "expires_at",
      "finished_at",
      "image",
      "page_count",
      "pdfa",
      "report_id",
      "signature",
      "size_bytes",
      "started_at",
      "status",
      "template_id",
      "template_version",
    ]);
    expect(r).toMatchObject({
      report_id: id,
      status: "queued",
      engine: "ejs",
      started_at: null,
      finished_at: null,
      expires_at: null,
      attempts: 0,
      size_bytes: null,
      page_count: null,
      error: null,
      template_id: null,
      template_version: null,
      pdfa: null,
      e_invoice: null,
      signature: null,
      image: null,
    });
    expect(new Date(r.created_at).toISOString()).toBe(r.created_at);
    expect(Date.parse(r.created_at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(r.created_at)).toBeLessThanOrEqual(Date.now() + 1);
  });

  test("never exposes the template or data", async () => {
    const id = await submit(t, { html_template: "<p>TOP-SECRET-TEMPLATE</p>", engine: "ejs", data: { secret: "TOP-SECRET-DATA" } });
    const text = await (await t.request("GET", `/api/v1/reports/${id}`)).text();
    expect(text).not.toContain("TOP-SECRET");
    const list = await (await t.request("GET", "/api/v1/reports?limit=100")).text();
    expect(list).not.toContain("TOP-SECRET");
  });

  test("processing: started_at and attempts are set", async () => {
    const id = await submit(t);
    await claim(t, id);
    const r = await getReport(id);
    expect(r.status).toBe("processing");
    expect(r.attempts).toBe(1);
    expect(r.started_at).not.toBeNull();
    expect(isoOrNull(r.started_at)).toBe(true);
    expect(r.finished_at).toBeNull();
  });

  test("succeeded: finished_at, expires_at, size_bytes and page_count are set", async () => {
    const id = await submit(t);
    const expiresAt = Date.now() + 3_600_000;
    await succeed(t, id, { expiresAt, bytes: "%PDF-1.4 twelve", pageCount: 3 });
    const r = await getReport(id);
    expect(r).toMatchObject({ status: "succeeded", attempts: 1, size_bytes: 15, page_count: 3, error: null });
    expect(r.expires_at).toBe(new Date(expiresAt).toISOString());
    expect(r.finished_at).not.toBeNull();
    expect(Date.parse(r.finished_at!)).toBeGreaterThanOrEqual(Date.parse(r.started_at!));
    expect(Date.parse(r.started_at!)).toBeGreaterThanOrEqual(Date.parse(r.created_at));
  });

  test("failed: error carries the code and message", async () => {
    const id = await submit(t);
    await fail(t, id, "template_error", "ReferenceError: name is not defined");
    const r = await getReport(id);
    expect(r).toMatchObject({
      status: "failed",
      error: { code: "template_error", message: "ReferenceError: name is not defined" },
      size_bytes: null,
      expires_at: null,
    });
    expect(r.finished_at).not.toBeNull();
  });

  test("expired: status expired after the retention job", async () => {
    const id = await submit(t);
    await expire(t, id);
    expect((await getReport(id)).status).toBe("expired");
    expect(existsSync(t.app.services.spool.pathOf(id))).toBe(false);
  });

  const badIds = [
    "not-a-uuid",
    "12345",
    "0B5E4F0C-6A5E-4D7B-9A1E-3F2D1C0B9A8E",
    "0b5e4f0c6a5e4d7b9a1e3f2d1c0b9a8e",
    "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e0",
    "%27%20OR%20%271%27%3D%271",
    "..%2F..%2Fetc%2Fpasswd",
  ];
  for (const id of badIds) {
    test(`invalid id ${id} → 404 not_found (GET, download, DELETE)`, async () => {
      await expectError(await t.request("GET", `/api/v1/reports/${id}`), 404, "not_found");
      await expectError(await t.request("GET", `/api/v1/reports/${id}/download`), 404, "not_found");
      await expectError(await t.request("DELETE", `/api/v1/reports/${id}`), 404, "not_found");
    });
  }

  test("an unknown uuid → 404 not_found", async () => {
    await expectError(await t.request("GET", `/api/v1/reports/${crypto.randomUUID()}`), 404, "not_found");
  });

  test("another account's report → 404 for GET, download and DELETE, and it survives", async () => {
    const id = await submit(t);
    await succeed(t, id);
    const answers = [];
    for (const [method, path] of [
      ["GET", `/api/v1/reports/${id}`],
      ["GET", `/api/v1/reports/${id}/download`],
      ["DELETE", `/api/v1/reports/${id}`],
    ] as const) {
      const res = await t.request(method, path, { key: otherKey });
      answers.push(await expectError(res, 404, "not_found"));
    }
    expect((await getReport(id)).status).toBe("succeeded");
    expect(existsSync(t.app.services.spool.pathOf(id))).toBe(true);
    // Indistinguishable from a report that does not exist.
    const unknown = crypto.randomUUID();
    const missing = (await (await t.request("GET", `/api/v1/reports/${unknown}`, { key: otherKey })).json()) as {
      error: string;
      message: string;
    };
    expect(answers[0]!.message.replace(id, "ID")).toBe(missing.message.replace(unknown, "ID"));
  });
});

describe("DELETE /reports/{reportID}", () => {
  beforeAll(open);
  afterAll(() => t.close());
  test("200 {data: {report_id, deleted: true}}, then 404 everywhere and the file is gone", async () => {
    const id = await submit(t);
    await succeed(t, id);
    const path = t.app.services.spool.pathOf(id);
    expect(existsSync(path)).toBe(true);
    const res = await t.request("DELETE", `/api/v1/reports/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { report_id: id, deleted: true } });
    expect(existsSync(path)).toBe(false);
    await expectError(await t.request("GET", `/api/v1/reports/${id}`), 404, "not_found");
    await expectError(await t.request("GET", `/api/v1/reports/${id}/download`), 404, "not_found");
    await expectError(await t.request("DELETE", `/api/v1/reports/${id}`), 404, "not_found");
    expect((await listPage("?limit=100")).data.map((r) => r.report_id)).not.toContain(id);
  });

  for (const state of ["queued", "processing", "failed", "expired"] as const) {
    test(`a ${state} report can be deleted`, async () => {
      const id = await submit(t);
      if (state === "processing") await claim(t, id);
      if (state === "failed") await fail(t, id, "x", "y");
      if (state === "expired") await expire(t, id);
      expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
      await expectError(await t.request("GET", `/api/v1/reports/${id}`), 404, "not_found");
    });
  }

  test("a report deleted while processing can no longer be marked succeeded", async () => {
    const id = await submit(t);
    await claim(t, id);
    expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
    const done = { id, attempt: 1, sizeBytes: 1, pageCount: 1, finishedAt: Date.now(), expiresAt: Date.now() + 1000 };
    expect(await t.app.services.repos.queue.succeed(done)).toBe(false);
    await expectError(await t.request("GET", `/api/v1/reports/${id}`), 404, "not_found");
  });
});

describe("GET /reports (list)", () => {
  let ids: string[]; // oldest first
  beforeAll(async () => {
    await open();
    ids = [];
    for (let i = 0; i < 7; i++) {
      ids.push(await submit(t, i % 2 ? EJS : RAW));
      await Bun.sleep(3); // distinct created_at, so "newest first" has one answer
    }
    for (let i = 0; i < 3; i++) await submit(t, RAW, otherKey);
  });
  afterAll(() => t.close());

  test("default: newest first, {data, next_cursor: null}", async () => {
    const page = await listPage("");
    expect(Object.keys(page).sort()).toEqual(["data", "next_cursor"]);
    expect(page.data.map((r) => r.report_id)).toEqual([...ids].reverse());
    expect(page.next_cursor).toBeNull();
    for (const r of page.data) expect(r.report_id).toMatch(UUID_RE);
  });

  test("items have the same shape as GET /reports/{id}", async () => {
    const page = await listPage("?limit=1");
    expect(page.data[0]).toEqual(await getReport(page.data[0]!.report_id));
  });

  test("limit 3 walks all 7 exactly once, in order: 3 + 3 + 1", async () => {
    const pages = await walk(3);
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
    for (const p of pages.slice(0, -1)) expect(typeof p.next_cursor).toBe("string");
    const seen = pages.flatMap((p) => p.data.map((r) => r.report_id));
    expect(seen).toEqual([...ids].reverse());
    expect(new Set(seen).size).toBe(7);
  });

  for (const limit of [1, 2, 6, 7, 8, 100]) {
    test(`limit ${limit} walks all 7 exactly once`, async () => {
      const pages = await walk(limit);
      const seen = pages.flatMap((p) => p.data.map((r) => r.report_id));
      expect(seen).toEqual([...ids].reverse());
      expect(pages.length).toBe(Math.max(1, Math.ceil(7 / limit)));
    });
  }

  test("a page exactly at the end has next_cursor null (no empty trailing page)", async () => {
    const page = await listPage("?limit=7");
    expect(page.data.length).toBe(7);
    expect(page.next_cursor).toBeNull();
  });

  test("reports created in the same millisecond are paged without loss or duplicates", async () => {
    const key = (await t.app.services.keys.createForAccount("tied", "k")).value;
    const accountId = await t.app.services.keys.accountId("tied");
    const createdAt = Date.now() - 10_000;
    const tied: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = crypto.randomUUID();
      tied.push(id);
      await t.app.services.repos.reports.insert({ id, accountId, engine: "raw", template: "x", data: null, options: null, createdAt });
    }
    // One newer and one older around them.
    const newer = crypto.randomUUID();
    const older = crypto.randomUUID();
    await t.app.services.repos.reports.insert({
      id: newer,
      accountId,
      engine: "raw",
      template: "x",
      data: null,
      options: null,
      createdAt: createdAt + 1,
    });
    await t.app.services.repos.reports.insert({
      id: older,
      accountId,
      engine: "raw",
      template: "x",
      data: null,
      options: null,
      createdAt: createdAt - 1,
    });
    for (const limit of [1, 2, 3, 4]) {
      const seen = (await walk(limit, "", key)).flatMap((p) => p.data.map((r) => r.report_id));
      expect(seen).toEqual([newer, ...[...tied].sort().reverse(), older]);
    }
  });

  test("status filter returns only that status, with pagination", async () => {
    // ids[0..6] are queued; move some along.
    await succeed(t, ids[0]!);
    await succeed(t, ids[3]!);
    await succeed(t, ids[5]!);
    await fail(t, ids[1]!, "template_error", "bad");
    await claim(t, ids[2]!);
    const succeeded = (await walk(2, "&status=succeeded")).flatMap((p) => p.data);
    expect(succeeded.map((r) => r.report_id)).toEqual([ids[5]!, ids[3]!, ids[0]!]);
    for (const r of succeeded) expect(r.status).toBe("succeeded");
    expect((await listPage("?status=failed")).data.map((r) => r.report_id)).toEqual([ids[1]!]);
    expect((await listPage("?status=processing")).data.map((r) => r.report_id)).toEqual([ids[2]!]);
    expect((await listPage("?status=queued")).data.map((r) => r.report_id)).toEqual([ids[6]!, ids[4]!]);
    expect((await listPage("?status=expired")).data).toEqual([]);
  });

  test("other accounts' reports are never listed, and theirs are their own", async () => {
    const mine = (await walk(100)).flatMap((p) => p.data.map((r) => r.report_id));
    const theirs = (await walk(100, "", otherKey)).flatMap((p) => p.data.map((r) => r.report_id));
    expect(mine.length).toBe(7);
    expect(theirs.length).toBe(3);
    expect(mine.filter((id) => theirs.includes(id))).toEqual([]);
  });

  test("another account's cursor does not reveal this account's reports", async () => {
    const first = await listPage("?limit=1");
    const theirs = (await listPage(`?cursor=${encodeURIComponent(first.next_cursor!)}&limit=100`, otherKey)).data;
    for (const r of theirs) expect(ids).not.toContain(r.report_id);
  });

  const badLimits = ["0", "101", "abc", "-1", "2.5", "1e3", ""];
  for (const limit of badLimits) {
    test(`limit=${JSON.stringify(limit)} → 422 validation_failed`, async () => {
      await expectError(await t.request("GET", `/api/v1/reports?limit=${limit}`), 422, "validation_failed");
    });
  }

  for (const limit of ["0", "101", "abc"]) {
    test(`limit=${limit}: details name the limit parameter`, async () => {
      await expectValidation(await t.request("GET", `/api/v1/reports?limit=${limit}`), "limit");
    });
  }

  test("status=bogus → 422 naming status", async () => {
    await expectValidation(await t.request("GET", "/api/v1/reports?status=bogus"), "status");
  });

  const badCursors: [string, string][] = [
    ["garbage", "bogus"],
    ["base64 of text", Buffer.from("hello world").toString("base64url")],
    ["right shape, not a uuid", Buffer.from("1700000000000.not-a-uuid-not-a-uuid-not-a-uuid-xxxxx").toString("base64url")],
    ["no timestamp", Buffer.from(`.${crypto.randomUUID()}`).toString("base64url")],
    ["negative timestamp", Buffer.from(`-5.${crypto.randomUUID()}`).toString("base64url")],
    ["trailing junk", Buffer.from(`1700000000000.${crypto.randomUUID()}x`).toString("base64url")],
  ];
  for (const [label, cursor] of badCursors) {
    test(`bogus cursor (${label}) → 400 invalid_cursor`, async () => {
      await expectError(await t.request("GET", `/api/v1/reports?cursor=${encodeURIComponent(cursor)}`), 400, "invalid_cursor");
    });
  }

  test("a cursor longer than 200 characters → 422", async () => {
    await expectError(await t.request("GET", `/api/v1/reports?cursor=${"a".repeat(201)}`), 422, "validation_failed");
  });
});
