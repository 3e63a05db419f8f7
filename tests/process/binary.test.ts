// The compiled executable, run from a temp directory with no node_modules anywhere near the
// build: it is built from a throw-away copy of the repo whose node_modules is deleted afterwards.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { environOf } from "../../src/lib/process-tree";
import { pdfText } from "../helpers/app";
import { api, copyRepo, descendants, isAlive, runCli, type ServerProcess, startServer } from "../helpers/process";

const work = mkdtempSync(join(tmpdir(), "reportgen-bin-"));
const binary = join(work, "reportgen");
const run = mkdtempSync(join(tmpdir(), "reportgen-run-"));
let server: ServerProcess;
let key: string;

beforeAll(() => {
  const copy = join(work, "src-copy");
  copyRepo(copy);
  const build = Bun.spawnSync([process.execPath, join(copy, "scripts", "build.ts"), binary], { cwd: copy });
  expect(build.exitCode, build.stderr.toString()).toBe(0);
  rmSync(copy, { recursive: true, force: true });
  console.error(`binary size: ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MB`);
}, 120_000);

afterAll(async () => {
  if (server && server.proc.exitCode === null) {
    server.proc.kill("SIGKILL");
    await server.proc.exited;
  }
  rmSync(work, { recursive: true, force: true });
  rmSync(run, { recursive: true, force: true });
});

test("version and help", () => {
  const v = runCli([binary], ["version"], run);
  expect(v.code).toBe(0);
  expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  const h = runCli([binary], ["--help"], run);
  expect(h.stdout).toContain("admin create-key");
  expect(h.stdout).toContain("REPORTGEN_DATA_DIR");
  expect(runCli([binary], ["frobnicate"], run).code).toBe(2);
});

test("migrate, create-key prints only the key on stdout, list-keys shows it", () => {
  expect(runCli([binary], ["migrate", "--data-dir", "data"], run).code).toBe(0);
  const created = runCli([binary], ["admin", "create-key", "--name", "smoke", "--account", "team", "--data-dir", "data"], run);
  expect(created.code).toBe(0);
  key = created.stdout.trim();
  expect(key).toMatch(/^rg_[a-z2-9]{12}_[A-Za-z0-9_-]{43}$/);
  expect(created.stdout).toBe(`${key}\n`);
  const listed = runCli([binary], ["admin", "list-keys", "--data-dir", "data"], run);
  expect(listed.stdout).toContain("smoke");
  expect(listed.stdout).toContain("team");
  expect(listed.stdout).not.toContain(key);
});

test("serve: generate (ejs), download through the signed link, delete", async () => {
  server = await startServer([binary], join(run, "data"), { cwd: run });
  console.error(`binary start: HTTP up in ${server.listenMs.toFixed(0)} ms, renderer ready in ${server.startMs.toFixed(0)} ms`);
  // The executable re-ran itself in place with mimalloc's 5 s purge delay (src/lib/allocator.ts).
  expect(environOf(server.proc.pid).MIMALLOC_PURGE_DELAY).toBe("5000");
  const sub = await api(server.baseUrl, key, "POST", "/generate-pdf-async", {
    engine: "ejs",
    html_template: "<h1>Hello <%= who %></h1>",
    data: { who: "binary" },
  });
  expect(sub.status).toBe(202);
  const id = sub.body.report_id;
  let dl;
  const until = Date.now() + 30_000;
  do {
    dl = await api(server.baseUrl, key, "GET", `/reports/${id}/download`);
    if (dl.status !== 202) break;
    await Bun.sleep(50);
  } while (Date.now() < until);
  expect(dl.status).toBe(200);
  const pdf = await fetch(dl.body.data);
  expect(pdf.headers.get("content-type")).toBe("application/pdf");
  expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain("Hello binary");

  expect((await api(server.baseUrl, key, "DELETE", `/reports/${id}`)).status).toBe(200);
  expect((await api(server.baseUrl, key, "GET", `/reports/${id}`)).status).toBe(404);
  expect((await fetch(dl.body.data)).status).toBe(403);
  const docs = await fetch(`${server.baseUrl}/api/v1/docs`);
  expect(docs.status).toBe(200);
  // Both worker-thread entrypoints are inside the executable (render and WAL checkpoint threads).
  expect(server.stderr()).not.toContain("thread failed");
});

test("delete-key from the CLI is rejected by the running server at once", async () => {
  const id = key.split("_")[1]!;
  expect(runCli([binary], ["admin", "delete-key", id, "--data-dir", "data"], run).code).toBe(0);
  const r = await fetch(`${server.baseUrl}/api/v1/reports`, { headers: { "x-api-key": key } });
  expect(r.status).toBe(401);
});

test("SIGTERM stops the binary cleanly with its Chromium and sandboxes", async () => {
  const children = descendants(server.proc.pid);
  expect(children.length).toBeGreaterThan(0);
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
  expect(children.filter(isAlive)).toEqual([]);
});
