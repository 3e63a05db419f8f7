// Post-processing from the compiled executable on its default settings (issue 26): qpdf is found at
// its default path, a watermarked, encrypted, linearized report and a merge come out as poppler reads them.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createKey, type Server, startServer, tempDataDir } from "./helpers";

setDefaultTimeout(90_000);

let server: Server;
let key: string;
const data = tempDataDir();
beforeAll(async () => {
  server = await startServer(data.dir);
  key = createKey(data.dir);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  data.remove();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.base}/api/v1${path}`, {
    method,
    headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as any };
}

/** Submits (or merges), waits with the long poll, downloads; returns the report and the PDF's path. */
async function produce(path: string, body: unknown) {
  const sub = await call("POST", path, body);
  expect(sub.status).toBe(202);
  const id = sub.json.report_id as string;
  const dl = await call("GET", `/reports/${id}/download?wait=30`);
  expect(dl.status).toBe(200);
  const file = join(data.dir, `${id}.out.pdf`);
  writeFileSync(file, new Uint8Array(await (await fetch(dl.json.data)).arrayBuffer()));
  return { id, file };
}

const poppler = (cmd: string[]) => {
  const p = Bun.spawnSync(cmd);
  return { code: p.exitCode, out: p.stdout.toString() };
};

test("a watermarked, encrypted, linearized report and a merge of two reports", async () => {
  const a = await produce("/generate-pdf-async", {
    engine: "raw",
    html_template: "<title>Part A</title><h1>Alpha</h1>",
    options: { watermark: { text: "DRAFT" }, encryption: { user_password: "bb-user", owner_password: "bb-owner" }, linearize: true },
  });
  const info = poppler(["pdfinfo", "-upw", "bb-user", a.file]).out;
  expect(info).toMatch(/Encrypted:\s+yes .*AES-256/);
  expect(info).toMatch(/Optimized:\s+yes/);
  expect(poppler(["pdftotext", a.file, "-"]).code).not.toBe(0);
  const text = poppler(["pdftotext", "-upw", "bb-user", a.file, "-"]).out;
  expect(text).toContain("Alpha");
  expect(text).toContain("DRAFT");

  const b = await produce("/generate-pdf-async", { engine: "raw", html_template: "<title>Part B</title><h1>Beta</h1>" });
  const c = await produce("/generate-pdf-async", { engine: "raw", html_template: "<title>Part C</title><h1>Gamma</h1>" });
  const merged = await produce("/reports/merge", { report_ids: [b.id, c.id] });
  expect(poppler(["pdfinfo", merged.file]).out).toMatch(/Pages:\s+2/);
  const outline = JSON.parse(poppler(["qpdf", "--json=2", "--json-key=outlines", merged.file]).out).outlines;
  expect(outline.map((o: { title: string }) => o.title)).toEqual(["Part B", "Part C"]);
  // An encrypted report cannot be a part: 422 naming it.
  const refused = await call("POST", "/reports/merge", { report_ids: [b.id, a.id] });
  expect(refused.status).toBe(422);
  expect(JSON.stringify(refused.json.details)).toContain("report_ids[1]");
  for (const f of [a.file, b.file, c.file, merged.file]) rmSync(f, { force: true });
});
