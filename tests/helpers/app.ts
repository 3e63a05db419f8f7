// Test app factory: a fresh temp data dir with a migrated SQLite database, the real App and its
// services, and a key to call the API with. `render: true` also starts the EJS sandboxes and Chromium.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { App } from "../../src/app/app";
import { bootstrap } from "../../src/app/bootstrap";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/settings";
import { createLogger, type Logger } from "../../src/lib/logger";
import { documentCheck } from "./openapi-check";

export interface TestApp {
  app: App;
  dir: string;
  /** A key of account "acme". */
  key: string;
  /** Calls the HTTP app in-process (no socket). */
  request: (
    method: string,
    path: string,
    opts?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ) => Promise<Response>;
  /** Base URL when started with listen: true. */
  baseUrl: string;
  close: () => Promise<void>;
}

/** `dir` reopens an existing data directory (a restart); close() then leaves it in place. `logger` hears what the App logs. */
export async function createTestApp(
  opts: { render?: boolean; listen?: boolean; config?: Partial<Config>; dir?: string; logger?: Logger } = {},
): Promise<TestApp> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), "reportgen-test-"));
  const config: Config = {
    ...loadConfig({}, {}),
    dataDir: dir,
    host: "127.0.0.1",
    port: 0,
    sandboxes: 2,
    renderPages: 2,
    ...opts.config,
  };
  const app = await bootstrap(config, {
    logger: opts.logger ?? createLogger((process.env.TEST_LOG_LEVEL as "debug") ?? "error"),
    mode: { render: opts.render ?? false, listen: opts.listen ?? false },
  });
  // Every answer of `request` is checked against the app's own OpenAPI document (tests/helpers/openapi-check.ts).
  // Built before the app starts its threads and the test its clock: a test that measures time (rate limits) must not pay for it.
  const check = await documentCheck(() => app.http.handle(new Request("http://localhost/api/v1/openapi.json")));
  await app.start();
  const key = (await app.services.keys.createForAccount("acme", "test")).value;
  const baseUrl = app.port ? `http://127.0.0.1:${app.port}` : "http://localhost";
  const request: TestApp["request"] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const k = o.key === undefined ? key : o.key;
    if (k) headers["x-api-key"] = k;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    const req = new Request(baseUrl + path, { method, headers, body });
    const res = await (app.server ? fetch(req) : app.http.handle(req));
    await check?.check(method, req.url, res);
    return res;
  };
  return {
    app,
    dir,
    key,
    request,
    baseUrl,
    close: async () => {
      await app.stop();
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls a report until it leaves queued/processing. */
export async function waitForReport(t: TestApp, id: string, timeoutMs = 30_000, key?: string): Promise<Record<string, any>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request("GET", `/api/v1/reports/${id}`, { key });
    const body = (await res.json()) as { data: Record<string, any> };
    if (body.data && !["queued", "processing"].includes(body.data.status)) return body.data;
    if (Date.now() > end) throw new Error(`report ${id} still ${body.data?.status} after ${timeoutMs} ms`);
    await Bun.sleep(25);
  }
}

/** Text of a PDF through poppler's pdftotext. */
export async function pdfText(pdf: Uint8Array | string): Promise<string> {
  const file = typeof pdf === "string" ? pdf : join(tmpdir(), `rg-${Math.random().toString(36).slice(2)}.pdf`);
  if (typeof pdf !== "string") await Bun.write(file, pdf);
  const p = Bun.spawnSync(["pdftotext", "-layout", file, "-"]);
  if (typeof pdf !== "string") rmSync(file, { force: true });
  if (p.exitCode !== 0) throw new Error(`pdftotext failed: ${p.stderr.toString()}`);
  return p.stdout.toString();
}

/** pdfinfo's fields (Pages, Page size, ...). */
export async function pdfInfo(pdf: Uint8Array): Promise<Record<string, string>> {
  const file = join(tmpdir(), `rg-${Math.random().toString(36).slice(2)}.pdf`);
  await Bun.write(file, pdf);
  const p = Bun.spawnSync(["pdfinfo", file]);
  rmSync(file, { force: true });
  if (p.exitCode !== 0) throw new Error(`pdfinfo failed: ${p.stderr.toString()}`);
  return Object.fromEntries(
    p.stdout
      .toString()
      .split("\n")
      .filter((l) => l.includes(":"))
      .map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]),
  );
}

/** Submits a report, waits for it, and returns the report, its link and the PDF bytes. */
export async function generate(t: TestApp, body: unknown, key?: string) {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body, key });
  if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${await res.text()}`);
  const { report_id } = (await res.json()) as { report_id: string };
  const report = await waitForReport(t, report_id, 30_000, key);
  if (report.status !== "succeeded") return { report, link: undefined, pdf: undefined };
  const dl = (await (await t.request("GET", `/api/v1/reports/${report_id}/download`, { key })).json()) as { data: string };
  const pdfRes = await fetchLink(t, dl.data);
  return { report, link: dl.data, pdf: new Uint8Array(await pdfRes.arrayBuffer()) };
}

/** Follows a download link, in-process or over the socket. */
export function fetchLink(t: TestApp, link: string): Promise<Response> {
  return t.app.server ? fetch(link) : t.app.http.handle(new Request(link));
}

/**
 * One app with the real renderer for a whole test file: started before its tests (Chromium's start
 * may take seconds on a busy machine) and closed after them. `set` receives it.
 */
export function useRenderApp(set: (t: TestApp) => void, config?: Partial<Config> | (() => Partial<Config>)): void {
  let app: TestApp | undefined;
  // A function is called in beforeAll: settings that depend on a server started there (an S3 endpoint).
  const settings = () => (typeof config === "function" ? config() : config);
  beforeAll(async () => set((app = await createTestApp({ render: true, config: settings() }))), 60_000);
  afterAll(() => app?.close(), 30_000);
}
