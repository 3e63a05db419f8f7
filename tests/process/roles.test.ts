// `serve --role`: an api instance renders nothing (no Chromium, reports wait for a worker), a worker
// instance answers only /livez, /readyz and /metrics. Real processes sharing one data dir (SQLite):
// the report submitted to the api instance is rendered by the worker and downloads through the api.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandLine } from "../../src/lib/process-tree";
import { api, descendants, runCli, type ServerProcess, sourceCommand, spawnServer } from "../helpers/process";

setDefaultTimeout(90_000);
const dir = mkdtempSync(join(tmpdir(), "reportgen-roles-"));
const running: ServerProcess[] = [];
afterAll(async () => {
  for (const s of running) {
    s.proc.kill("SIGTERM");
    await s.proc.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

async function serve(role: string): Promise<ServerProcess> {
  const s = await spawnServer(sourceCommand, dir, { extraArgs: ["--role", role] });
  running.push(s);
  return s;
}

/** Polls a path until it answers `status` (the process is up, and ready when asked for 200 on /readyz). */
async function until(base: string, path: string, status: number, s: ServerProcess): Promise<void> {
  const end = Date.now() + 45_000;
  for (;;) {
    try {
      if ((await fetch(base + path)).status === status) return;
    } catch {}
    if (s.proc.exitCode !== null || Date.now() > end) throw new Error(`${path} never answered ${status}:\n${s.stderr()}`);
    await Bun.sleep(50);
  }
}

const chromiumUnder = (pid: number) => descendants(pid).filter((p) => commandLine(p).includes("chromium"));

test("api renders nothing; worker serves only its probes; together they turn a report into a PDF", async () => {
  const created = runCli(sourceCommand, ["admin", "create-key", "--name", "roles", "--data-dir", dir]);
  expect(created.code).toBe(0);
  const key = created.stdout.trim();

  const apiInstance = await serve("api");
  // Ready without any renderer: readiness is about the database and the disk here.
  await until(apiInstance.baseUrl, "/readyz", 200, apiInstance);
  const ready = (await (await fetch(`${apiInstance.baseUrl}/readyz`)).json()) as { status: string };
  expect(ready.status).toBe("ready");
  expect(apiInstance.stderr()).toContain('"role":"api"');

  const sub = await api(apiInstance.baseUrl, key, "POST", "/generate-pdf-async", {
    engine: "raw",
    html_template: "<h1>rendered by the worker</h1>",
  });
  expect(sub.status).toBe(202);
  const id = sub.body.report_id as string;
  await Bun.sleep(2_000);
  expect((await api(apiInstance.baseUrl, key, "GET", `/reports/${id}`)).body.data.status).toBe("queued");
  expect(chromiumUnder(apiInstance.proc.pid!)).toEqual([]);

  const worker = await serve("worker");
  await until(worker.baseUrl, "/readyz", 200, worker);
  expect(chromiumUnder(worker.proc.pid!).length).toBeGreaterThan(0);
  for (const path of ["/livez", "/readyz", "/metrics"]) expect((await fetch(worker.baseUrl + path)).status).toBe(200);
  for (const [method, path] of [
    ["GET", "/healthz"],
    ["GET", "/api/v1/reports"],
    ["POST", "/api/v1/generate-pdf-async"],
    ["GET", "/api/v1/openapi.json"],
    ["GET", "/dashboard"],
    ["GET", `/files/${id}?expires=1&signature=x`],
    ["GET", "/"],
  ]) {
    const res = await fetch(worker.baseUrl + path, { method, headers: { "x-api-key": key } });
    expect(res.status, `${method} ${path}`).toBe(404);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe("route_not_found");
    expect(body.message).toContain("--role worker");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  }

  // The worker takes the queued report; the api instance hands out its link.
  const end = Date.now() + 30_000;
  let status = "";
  while (status !== "succeeded" && Date.now() < end) {
    status = (await api(apiInstance.baseUrl, key, "GET", `/reports/${id}`)).body.data.status;
    await Bun.sleep(100);
  }
  expect(status).toBe("succeeded");
  const link = (await api(apiInstance.baseUrl, key, "GET", `/reports/${id}/download`)).body.data as string;
  const pdf = await fetch(link);
  expect(pdf.status).toBe(200);
  expect(new TextDecoder().decode(new Uint8Array(await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
  expect(chromiumUnder(apiInstance.proc.pid!)).toEqual([]);
});
