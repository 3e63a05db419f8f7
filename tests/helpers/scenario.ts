// Scenario helpers for the API tier: drive reports through their states with the real repo (no
// Chromium), build raw requests, and check the shared error body shape.
import { expect } from "bun:test";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../src/config/settings";
import { fenceOf } from "../../src/modules/files/pdf-store";
import { createTestApp, type TestApp } from "./app";

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UNAUTHORIZED = '{"error":"unauthorized"}';

/** A minimal valid generation request. */
export const RAW = { html_template: "<h1>Hello</h1>", engine: "raw" } as const;
export const EJS = { html_template: "<h1><%= name %></h1>", engine: "ejs", data: { name: "Ada" } } as const;

/** Bytes written as the "PDF" of a succeeded report (the API tier never runs Chromium). */
export const FAKE_PDF = "%PDF-1.4\n% reportgen test file\n%%EOF\n";

/** A request with exactly these headers (t.request adds a JSON content type whenever there is a body). */
export function rawRequest(
  t: TestApp,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  return t.app.http!.handle(new Request(t.baseUrl + path, { method, headers: opts.headers ?? {}, body: opts.body }));
}

/** Submits a report and returns its id; fails the test unless the answer is 202. */
export async function submit(t: TestApp, body: unknown = RAW, key?: string): Promise<string> {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body, key });
  if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${await res.text()}`);
  const { report_id } = (await res.json()) as { report_id: string };
  return report_id;
}

/** Moves report `id` from queued to processing (other queued reports claimed on the way go back); returns the claim's fence. */
export async function claim(t: TestApp, id: string, now = Date.now()): Promise<number> {
  const others: { id: string; attempts: number }[] = [];
  try {
    for (;;) {
      const [c] = await t.app.services.repos.queue.claim(now, 60_000);
      if (!c) throw new Error(`report ${id} is not queued`);
      if (c.id === id) return c.attempts;
      others.push(c);
    }
  } finally {
    for (const o of others) await t.app.services.repos.queue.requeue(o.id, o.attempts, true);
  }
}

/** Ends report `id` succeeded with a fake PDF in the app's PDF store (disk or bucket), as the processor would. */
export async function succeed(
  t: TestApp,
  id: string,
  opts: { expiresAt?: number; bytes?: string | Uint8Array; pageCount?: number } = {},
): Promise<void> {
  const attempt = await claim(t, id);
  const bytes = opts.bytes ?? FAKE_PDF;
  const fence = fenceOf({ attempts: attempt });
  const spooled = t.app.services.spool.pathOf(id, fence);
  await Bun.write(spooled, bytes);
  await t.app.services.files.commit(id, fence, spooled);
  const now = Date.now();
  const size = typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.byteLength;
  if (
    !(await t.app.services.repos.queue.succeed({
      id,
      attempt,
      sizeBytes: size,
      pageCount: opts.pageCount ?? 1,
      finishedAt: now,
      expiresAt: opts.expiresAt ?? now + 86_400_000,
    }))
  ) {
    throw new Error(`markSucceeded(${id}) did not update the row`);
  }
}

/** Ends report `id` failed with this code and message. */
export async function fail(t: TestApp, id: string, code: string, message: string): Promise<void> {
  const attempt = await claim(t, id);
  await t.app.services.repos.queue.fail(id, attempt, code, message, Date.now());
}

/** Succeeds the report with an expiry in the past, then runs the retention job. */
/**
 * The usage tests' account "acme": 3 reports by the test key (2 succeed with 3 and 2 pages, 1 fails),
 * 2 by a second key (1 succeeds with 5 pages, 1 stays queued). Returns the second key.
 */
export async function seedUsage(t: TestApp): Promise<{ id: string; value: string }> {
  const second = await t.app.services.keys.createForAccount("acme", "second");
  const mine = [await submit(t), await submit(t), await submit(t)];
  const theirs = [await submit(t, undefined, second.value), await submit(t, undefined, second.value)];
  await succeed(t, mine[0]!, { pageCount: 3 });
  await succeed(t, mine[1]!, { pageCount: 2 });
  await fail(t, mine[2]!, "template_error", "boom");
  await succeed(t, theirs[0]!, { pageCount: 5 });
  return second;
}

export async function expire(t: TestApp, id: string): Promise<void> {
  await succeed(t, id, { expiresAt: Date.now() - 1 });
  await t.app.cleanup();
}

/** The link-signing secret the app generated into its data dir. */
export function linkSecret(t: TestApp): string {
  return readFileSync(join(t.dir, "link-secret"), "utf8").trim();
}

/** A key value of the right shape whose id does not exist. */
export function unknownKey(): string {
  const alphabet = "abcdefghijkmnpqrstuvwxyz23456789";
  const id = Array.from(randomBytes(12), (b) => alphabet[b & 31]).join("");
  return `rg_${id}_${randomBytes(32).toString("base64url")}`;
}

/** Parses "rg_<id>_<secret>". */
export function keyParts(value: string): { id: string; secret: string } {
  const m = /^rg_([a-z2-9]{12})_([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) throw new Error(`not a key value: ${value}`);
  return { id: m[1]!, secret: m[2]! };
}

/** Asserts the shared error shape ({error, message} JSON) with this status and code; returns the body. */
export async function expectError(res: Response, status: number, code: string): Promise<Record<string, any>> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  expect(res.headers.get("content-type") ?? "").toContain("application/json");
  const body = JSON.parse(text) as Record<string, any>;
  expect(body.error).toBe(code);
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

/** Asserts the exact 401 answer of the interface specification. */
export async function expectUnauthorized(res: Response): Promise<void> {
  expect({ status: res.status, body: await res.text() }).toEqual({ status: 401, body: UNAUTHORIZED });
}

/** Asserts a 422 validation_failed whose details name `field`; returns the body. */
export async function expectValidation(res: Response, field: string): Promise<Record<string, any>> {
  const body = await expectError(res, 422, "validation_failed");
  expect(Array.isArray(body.details)).toBe(true);
  expect(body.details.map((d: { field: string }) => d.field)).toContain(field);
  for (const d of body.details) {
    expect(typeof d.field).toBe("string");
    expect(typeof d.problem).toBe("string");
  }
  return body;
}

/** Runs fn against a fresh app with these settings, and closes it whatever happens. */
export async function withApp(config: Partial<Config>, fn: (a: TestApp) => Promise<void>, extra: { listen?: boolean } = {}) {
  const a = await createTestApp({ config, ...extra });
  try {
    await fn(a);
  } finally {
    await a.close();
  }
}
