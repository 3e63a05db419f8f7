// `serve` gives memory a burst raised back once it has been quiet for --memory-trim-after
// (src/lib/memory-trim.ts): once after its start, once after a burst of work that raised its memory,
// never again and again while idle (scrapes and health probes); each trim is counted in /metrics and
// logged. During the burst itself the garbage is collected as the memory grows, not left for the quiet.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sourceCommand, startServer } from "../helpers/process";

const dir = mkdtempSync(join(tmpdir(), "reportgen-memory-trim-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const QUIET_MS = 2_000;
const LOG_LINE = "returned freed memory after a quiet period";

test("the server trims after its start and after a burst, once each, and counts it in /metrics", async () => {
  const dataDir = join(dir, "data");
  const created = Bun.spawnSync([...sourceCommand, "admin", "create-key", "--name", "trim", "--data-dir", dataDir]);
  const key = created.stdout.toString().trim();
  expect(key.length).toBeGreaterThan(10);
  const server = await startServer(sourceCommand, dataDir, { extraArgs: ["--memory-trim-after", `${QUIET_MS}ms`] });
  const counter = async (name: string) => {
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    return Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  };
  const trims = () => counter("reportgen_memory_trims_total");
  const burstCollections = () => counter("reportgen_memory_burst_collections_total");
  const until = async (what: string, ok: () => Promise<boolean>, ms: number) => {
    const end = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${server.stderr()}`);
      await Bun.sleep(1_000);
    }
  };
  try {
    // The start is work: one trim once the service has been quiet long enough, then none while idle.
    await until("the first trim", async () => (await trims()) === 1, QUIET_MS + 30_000);
    await Bun.sleep(3 * QUIET_MS);
    expect(await trims()).toBe(1);
    const collectedBefore = await burstCollections();

    // A burst of reports (a few MB of PDFs through the server), then quiet again: exactly one more.
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const template =
      "<h1><%= title %></h1><table><% for (const r of rows) { %><tr><td><%= r %></td><td><%= r * 7 %></td></tr><% } %></table>";
    const rows = Array.from({ length: 2_000 }, (_, i) => i);
    let left = 64;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (left-- > 0) {
          const body = JSON.stringify({ engine: "ejs", html_template: template, data: { title: `burst ${left}`, rows } });
          const r = await fetch(`${server.baseUrl}/api/v1/generate-pdf-async`, { method: "POST", headers, body });
          const { report_id } = (await r.json()) as { report_id: string };
          let d = await fetch(`${server.baseUrl}/api/v1/reports/${report_id}/download?wait=30`, { headers });
          while (d.status === 202) {
            await d.arrayBuffer();
            d = await fetch(`${server.baseUrl}/api/v1/reports/${report_id}/download?wait=30`, { headers });
          }
          expect(d.status).toBe(200);
          const { data } = (await d.json()) as { data: string };
          expect((await (await fetch(data)).arrayBuffer()).byteLength).toBeGreaterThan(1000);
        }
      }),
    );
    expect(await trims()).toBe(1);
    // It raised the server's memory by more than 16 MiB (~25 MiB from source): collected meanwhile.
    const collectedDuring = (await burstCollections()) - collectedBefore;
    expect(collectedDuring).toBeGreaterThanOrEqual(1);
    await until("the trim after the burst", async () => (await trims()) === 2, QUIET_MS + 30_000);
    await Bun.sleep(3 * QUIET_MS);
    expect(await trims()).toBe(2);
    // Idle, nothing grows: no collection beyond the trim.
    expect(await burstCollections()).toBe(collectedBefore + collectedDuring);
    const lines = server
      .stderr()
      .split("\n")
      .filter((l) => l.includes(LOG_LINE))
      .map((l) => JSON.parse(l) as { rss_before_mib: number; rss_after_mib: number });
    expect(lines.length).toBe(2);
    for (const l of lines) expect(l.rss_before_mib).toBeGreaterThan(0);
  } finally {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
  }
}, 120_000);
