// A SIGKILL at any moment loses no accepted report; SIGTERM drains and leaves no Chromium behind.

import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, descendants, isAlive, runCli, sourceCommand, startServer } from "../helpers/process";

const dir = mkdtempSync(join(tmpdir(), "reportgen-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Each report keeps Chromium busy ~400 ms, so a batch is partly queued and partly in flight.
const slow = (i: number) => ({
  engine: "raw",
  html_template: `<p>report ${i}</p><script>var e = Date.now() + 400; while (Date.now() < e) {}</script>`,
});

function statuses(): Record<string, number> {
  const db = new Database(join(dir, "reportgen.db"), { readonly: true });
  const rows = db.query<{ status: string; n: number }, []>("SELECT status, count(*) AS n FROM reports GROUP BY status").all();
  db.close();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

test("SIGKILL with reports queued and in flight, then restart: every report succeeds", async () => {
  const key = runCli(sourceCommand, ["admin", "create-key", "--name", "crash", "--data-dir", dir]).stdout.trim();
  expect(key).toStartWith("rg_");
  const first = await startServer(sourceCommand, dir);
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await api(first.baseUrl, key, "POST", "/generate-pdf-async", slow(i));
    expect(r.status).toBe(202);
    ids.push(r.body.report_id);
  }
  // Wait until something is being printed, then kill without warning.
  const end = Date.now() + 15_000;
  while (!((statuses().processing ?? 0) > 0) && Date.now() < end) await Bun.sleep(20);
  const before = statuses();
  expect(before.processing).toBeGreaterThan(0);
  expect(before.queued ?? 0).toBeGreaterThan(0);
  const children = descendants(first.proc.pid);
  expect(children.length).toBeGreaterThan(0); // Chromium and the EJS sandboxes
  first.proc.kill("SIGKILL");
  await first.proc.exited;

  // Chromium (over its pipe) and the sandboxes go down with the process.
  const gone = Date.now() + 10_000;
  while (children.some(isAlive) && Date.now() < gone) await Bun.sleep(100);
  expect(children.filter(isAlive)).toEqual([]);

  const second = await startServer(sourceCommand, dir);
  try {
    for (const id of ids) {
      const until = Date.now() + 60_000;
      let r;
      do {
        r = await api(second.baseUrl, key, "GET", `/reports/${id}`);
        if (r.body.data.status === "succeeded") break;
        await Bun.sleep(100);
      } while (Date.now() < until);
      expect(r.body.data.status).toBe("succeeded");
    }
    expect(second.stderr()).toContain("recovered interrupted reports");
    // Nothing half-written survives: only finished PDFs, one per report.
    expect(readdirSync(join(dir, "reports")).sort()).toEqual(ids.map((id) => `${id}.pdf`).sort());
    for (const id of ids)
      expect(
        readFileSync(join(dir, "reports", `${id}.pdf`))
          .subarray(-8)
          .toString("latin1"),
      ).toContain("%%EOF");
  } finally {
    second.proc.kill("SIGKILL");
    await second.proc.exited;
  }
}, 120_000);

test("SIGTERM re-queues or finishes what is in flight and exits cleanly with Chromium gone", async () => {
  const key = runCli(sourceCommand, ["admin", "create-key", "--name", "term", "--data-dir", dir]).stdout.trim();
  const server = await startServer(sourceCommand, dir, { extraArgs: ["--shutdown-timeout", "500ms"] });
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push((await api(server.baseUrl, key, "POST", "/generate-pdf-async", slow(i))).body.report_id);
  while (!((statuses().processing ?? 0) > 0)) await Bun.sleep(20);
  const children = descendants(server.proc.pid);
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
  expect(children.filter(isAlive)).toEqual([]);
  expect(server.stderr()).toContain("reportgen stopped");
  // Nothing is left processing: each report is finished or back in the queue, with its attempt refunded.
  const s = statuses();
  expect(s.processing ?? 0).toBe(0);
  const db = new Database(join(dir, "reportgen.db"), { readonly: true });
  const queued = db.query<{ attempts: number }, []>("SELECT attempts FROM reports WHERE status = 'queued'").all();
  db.close();
  for (const q of queued) expect(q.attempts).toBe(0);

  const again = await startServer(sourceCommand, dir);
  try {
    for (const id of ids) {
      let r;
      const until = Date.now() + 60_000;
      do {
        r = await api(again.baseUrl, key, "GET", `/reports/${id}`);
        if (r.body.data.status === "succeeded") break;
        await Bun.sleep(100);
      } while (Date.now() < until);
      expect(r.body.data.status).toBe("succeeded");
    }
  } finally {
    again.proc.kill("SIGTERM");
    await again.proc.exited;
  }
}, 120_000);
