// A stored template's data_schema cannot stall the service: while four clients keep sending the most
// expensive checks the data limits allow (a backtracking pattern over 150,000 strings, uniqueItems over
// 99,000 distinct objects, the same pattern through a save's sample_data), /livez and another account's
// GET /api/v1/reports answer within 100 ms at p99. The server is a real process on loopback (a blocked
// event loop cannot also stop this test's clock), with --role api (no Chromium competing for the cores);
// the clients run in a thread of their own. Before the checks moved to the validator thread, every probe
// here waited for its 5 s give-up: the first pattern check held the event loop for good.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { api, runCli, type ServerProcess, sourceCommand, spawnServer } from "../helpers/process";
import type { FloodData } from "../helpers/schema-flood";

setDefaultTimeout(120_000);
const dir = mkdtempSync(join(tmpdir(), "reportgen-schema-loop-"));
let server: ServerProcess | undefined;
afterAll(async () => {
  // SIGKILL: a server whose event loop is blocked would not answer SIGTERM in time.
  server?.proc.kill("SIGKILL");
  await server?.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

const LOAD_MS = 8_000;
const PROBE_EVERY_MS = 20;
/** A probe that gets no answer within this long counts as this long (the server is stalled). */
const PROBE_GIVE_UP_MS = 5_000;

const EVIL = { type: "object", properties: { rows: { type: "array", items: { type: "string", pattern: "^(a+)+$" } } } };
const UNIQUE = { type: "object", properties: { rows: { type: "array", uniqueItems: true } } };

const key = (account: string) => {
  const r = runCli(sourceCommand, ["admin", "create-key", "--name", "load", "--account", account, "--data-dir", dir]);
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
};

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function timed(url: string, headers: Record<string, string> = {}): Promise<number> {
  const t0 = performance.now();
  try {
    const r = await fetch(url, { headers, signal: AbortSignal.timeout(PROBE_GIVE_UP_MS) });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
  } catch (e) {
    if ((e as Error).name !== "TimeoutError") throw e;
    return PROBE_GIVE_UP_MS;
  }
  return performance.now() - t0;
}

test("four clients flooding schema validation: /livez and another account's reads stay under 100 ms at p99", async () => {
  const attacker = key("attacker");
  const bystander = key("bystander");
  server = await spawnServer(sourceCommand, dir, { extraArgs: ["--role", "api", "--log-level", "error"] });
  const base = server.baseUrl;
  for (const end = Date.now() + 30_000; ; await Bun.sleep(50)) {
    if ((await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200) break;
    if (Date.now() > end) throw new Error(`the server did not become ready:\n${server.stderr()}`);
  }
  const template = async (data_schema: unknown) => {
    const r = await api(base, attacker, "POST", "/templates", {
      name: "t",
      engine: "ejs",
      html_template: "<p><%= rows.length %>",
      data_schema,
    });
    expect(r.status).toBe(201);
    return r.body.template_id as string;
  };
  const evilId = await template(EVIL);
  const uniqueId = await template(UNIQUE);

  // The clients run in a thread of their own (tests/helpers/schema-flood.ts); this one only times probes.
  const flood = new Worker(new URL("../helpers/schema-flood.ts", import.meta.url), {
    workerData: { base, key: attacker, evilId, uniqueId, evilSchema: EVIL, clients: 4, durationMs: LOAD_MS } satisfies FloodData,
  });
  const started = new Promise((resolve) => flood.once("message", resolve));
  const finished = new Promise<number[]>((resolve) =>
    flood.on("message", (m: { type: string; statuses?: number[] }) => m.type === "done" && resolve(m.statuses!)),
  );
  await started;
  const stopAt = performance.now() + LOAD_MS;
  const livez: number[] = [];
  const reads: number[] = [];
  const probe = async () => {
    await Bun.sleep(200); // the first requests are in flight
    while (performance.now() < stopAt) {
      const [a, b] = await Promise.all([timed(`${base}/livez`), timed(`${base}/api/v1/reports?limit=5`, { "x-api-key": bystander })]);
      livez.push(a);
      reads.push(b);
      await Bun.sleep(PROBE_EVERY_MS);
    }
  };
  await probe();
  const statuses = await finished;
  await flood.terminate();
  const summary = {
    livez: { n: livez.length, p50: percentile(livez, 50), p99: percentile(livez, 99), max: Math.max(...livez) },
    reads: { n: reads.length, p50: percentile(reads, 50), p99: percentile(reads, 99), max: Math.max(...reads) },
    attacks: statuses.length,
    statuses: [...new Set(statuses)],
  };
  console.log(`schema flood: ${JSON.stringify(summary)}`);
  expect(summary.livez.p99).toBeLessThan(100);
  expect(summary.reads.p99).toBeLessThan(100);
  // Every attack was refused as invalid data: none was queued, none failed the server.
  expect(summary.statuses).toEqual([422]);
});
