// A stored template's data_schema cannot stall the service: while four clients keep sending the most
// expensive checks the data limits allow (a backtracking pattern over 150,000 strings, uniqueItems over
// 99,000 distinct objects, the same pattern through a save's sample_data), /livez and another account's
// GET /api/v1/reports answer within 100 ms at p99 — or, on a machine too busy for that, within 3 times
// what the same probes take at the same moment without the costly checks. That baseline comes from "noop"
// phases interleaved with the flood: the same bodies at the same rate, to templates whose schemas refuse
// them at once, so only the checks differ, and the machine's load, whatever it is, weighs on both.
// The server is a real process on loopback (a blocked event loop cannot also stop this test's clock), with
// --role api (no Chromium competing for the cores); the clients run in a thread of their own. Before the
// checks moved to the validator thread, every probe here waited for its 5 s give-up: the first pattern
// check held the event loop for good.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { api, runCli, type ServerProcess, sourceCommand, spawnServer } from "../helpers/process";
import type { FloodData, FloodMessage, Phase } from "../helpers/schema-flood";

setDefaultTimeout(120_000);
const dir = mkdtempSync(join(tmpdir(), "reportgen-schema-loop-"));
let server: ServerProcess | undefined;
afterAll(async () => {
  // SIGKILL: a server whose event loop is blocked would not answer SIGTERM in time.
  server?.proc.kill("SIGKILL");
  await server?.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

/** Flood phases, each between two noop phases, and the length of each phase. */
const ROUNDS = 4;
const PHASE_MS = 2_000;
const PROBE_EVERY_MS = 20;
/** A probe that gets no answer within this long counts as this long (the server is stalled). */
const PROBE_GIVE_UP_MS = 5_000;

const PATTERN = { type: "object", properties: { rows: { type: "array", items: { type: "string", pattern: "^(a+)+$" } } } };
const UNIQUE = { type: "object", properties: { rows: { type: "array", uniqueItems: true } } };
/** Refuses the same bodies at once: no item is looked at. */
const CHEAP = { type: "object", properties: { rows: { type: "array", maxItems: 0 } } };

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

interface Probe {
  phase: Phase;
  livez: number;
  reads: number;
}

/**
 * Times /livez and another account's read side by side, every PROBE_EVERY_MS until `done()`, each probe
 * labelled with the phase its start fell in; or until three probes in a row got no answer (a stalled server:
 * waiting for the phases to end would only run into the test's timeout).
 */
async function probe(base: string, key: string, phase: () => Phase, done: () => boolean): Promise<{ probes: Probe[]; stalled: boolean }> {
  const probes: Probe[] = [];
  const stalled = () => probes.length >= 3 && probes.slice(-3).every((p) => p.livez >= PROBE_GIVE_UP_MS);
  while (!done() && !stalled()) {
    const at = phase();
    const [livez, reads] = await Promise.all([timed(`${base}/livez`), timed(`${base}/api/v1/reports?limit=5`, { "x-api-key": key })]);
    probes.push({ phase: at, livez, reads });
    await Bun.sleep(PROBE_EVERY_MS);
  }
  return { probes, stalled: stalled() };
}

test("four clients flooding schema validation: /livez and another account's reads stay under 100 ms at p99 (or 3x the same moment's baseline)", async () => {
  const attacker = key("attacker");
  const bystander = key("bystander");
  server = await spawnServer(sourceCommand, dir, { extraArgs: ["--role", "api", "--log-level", "error"] });
  const base = server.baseUrl;
  for (const end = Date.now() + 30_000; ; await Bun.sleep(50)) {
    if ((await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200) break;
    if (Date.now() > end) throw new Error(`the server did not become ready:\n${server.stderr()}`);
  }
  // Saving a template compiles its schema in the validator thread, which runs at a lower priority: on a
  // saturated machine even a small schema can miss the 2 s deadline (a 422 that says so). Setup, not the
  // measure: try again.
  const template = async (data_schema: unknown) => {
    for (let attempt = 1; ; attempt++) {
      const r = await api(base, attacker, "POST", "/templates", {
        name: "t",
        engine: "ejs",
        html_template: "<p><%= rows.length %>",
        data_schema,
      });
      if (r.status === 201) return r.body.template_id as string;
      if (attempt === 5 || !/took longer than/.test(r.body?.message))
        throw new Error(`saving a template: ${r.status} ${JSON.stringify(r.body)}`);
    }
  };
  const targets = {
    flood: { patternId: await template(PATTERN), uniqueId: await template(UNIQUE), schema: PATTERN },
    noop: { patternId: await template(CHEAP), uniqueId: await template(CHEAP), schema: CHEAP },
  };

  // The clients run in a thread of their own (tests/helpers/schema-flood.ts); this one only times probes.
  const flood = new Worker(new URL("../helpers/schema-flood.ts", import.meta.url), {
    workerData: { base, key: attacker, targets, clients: 4, rounds: ROUNDS, phaseMs: PHASE_MS } satisfies FloodData,
  });
  let phase: Phase = "noop";
  let statuses: Record<Phase, number[]> | undefined;
  const started = new Promise((resolve) => flood.once("message", resolve));
  flood.on("message", (m: FloodMessage) => {
    if (m.type === "phase") phase = m.phase;
    if (m.type === "done") statuses = m.statuses;
  });
  await started;
  const { probes, stalled } = await probe(
    base,
    bystander,
    () => phase,
    () => statuses !== undefined,
  );
  await flood.terminate();
  const answered = statuses ?? { flood: [], noop: [] };
  const stats = (p: Phase, k: "livez" | "reads") => {
    const xs = probes.filter((x) => x.phase === p).map((x) => x[k]);
    return { n: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: Math.max(...xs) };
  };
  const summary = {
    flood: { livez: stats("flood", "livez"), reads: stats("flood", "reads") },
    noop: { livez: stats("noop", "livez"), reads: stats("noop", "reads") },
    requests: { flood: answered.flood.length, noop: answered.noop.length },
    statuses: { flood: [...new Set(answered.flood)], noop: [...new Set(answered.noop)] },
  };
  console.log(`schema flood: ${JSON.stringify({ ...summary, stalled })}`);
  // A blocked event loop: no answer for 15 s, whatever the machine's load (main before the validator thread).
  expect(stalled, "three probes in a row got no answer within 5 s each").toBe(false);
  // 100 ms at p99, the target; on a machine so busy that even the baseline's probes take long, 3 times
  // the baseline's p99 (measured on this 2-core machine at a load average of 29: flood p99 360 ms, max 5 s,
  // baseline p99 1.9 s; a blocked loop: every probe given up).
  expect(summary.noop.livez.n, "baseline probes").toBeGreaterThanOrEqual(5);
  for (const k of ["livez", "reads"] as const)
    expect(summary.flood[k].p99, `${k} p99 under the flood`).toBeLessThan(Math.max(100, 3 * summary.noop[k].p99));
  // Every request of both kinds was refused as invalid data: none was queued, none failed the server.
  expect(summary.statuses).toEqual({ flood: [422], noop: [422] });
});
