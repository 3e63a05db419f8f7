// A worker thread that loads a server in alternating phases (tests/process/schema-event-loop.test.ts):
// "flood": the clients keep sending the most expensive data_schema checks the data limits allow;
// "noop": as many requests as the flood phase before got answered, spread over the phase, with the same
// bodies but to templates whose schemas refuse them at once (the same bytes to read, parse and answer with
// a 422, at the same rate, without the costly check). The probes taken meanwhile are a baseline of the
// same moment on the same machine. Each phase ends when its last answers are in. It runs apart from the thread that times the
// probes, so the clients' own work (4 MB bodies, their garbage) never delays a probe's clock.
import { parentPort, workerData } from "node:worker_threads";

export type Phase = "flood" | "noop";

/** The templates one phase sends to: a backtracking pattern and uniqueItems, or their cheap counterparts. */
export interface PhaseTargets {
  patternId: string;
  uniqueId: string;
  /** The data_schema of a template saved with the pattern body as its sample_data. */
  schema: unknown;
}

export interface FloodData {
  base: string;
  key: string;
  targets: Record<Phase, PhaseTargets>;
  clients: number;
  /** noop, flood, noop, ..., noop: `rounds` flood phases between noop phases. */
  rounds: number;
  phaseMs: number;
}

export type FloodMessage = { type: "ready" } | { type: "phase"; phase: Phase } | { type: "done"; statuses: Record<Phase, number[]> };

const d = workerData as FloodData;
// ~4.4 MB: each string makes a backtracking engine try 2^25 ways before it fails on the "!".
const patternRows = JSON.stringify(Array.from({ length: 150_000 }, () => `${"a".repeat(25)}!`));
// 99,000 items and as many keys: within the 200,000 of --data-max-keys; uniqueItems compares every pair.
const uniqueRows = JSON.stringify(Array.from({ length: 99_000 }, (_, i) => ({ i })));

function bodiesOf(t: PhaseTargets) {
  return [
    { path: "/generate-pdf-async", body: `{"template_id":${JSON.stringify(t.patternId)},"data":{"rows":${patternRows}}}` },
    { path: "/generate-pdf-async", body: `{"template_id":${JSON.stringify(t.uniqueId)},"data":{"rows":${uniqueRows}}}` },
    {
      path: "/templates",
      body: `{"name":"t","engine":"ejs","html_template":"<p>","data_schema":${JSON.stringify(t.schema)},"sample_data":{"rows":${patternRows}}}`,
    },
  ];
}
const bodies = { flood: bodiesOf(d.targets.flood), noop: bodiesOf(d.targets.noop) };
const statuses: Record<Phase, number[]> = { flood: [], noop: [] };

async function send(phase: Phase, i: number): Promise<void> {
  const b = bodies[phase][i % bodies[phase].length]!;
  const r = await fetch(`${d.base}/api/v1${b.path}`, {
    method: "POST",
    headers: { "x-api-key": d.key, "content-type": "application/json" },
    body: b.body,
    signal: AbortSignal.timeout(d.phaseMs + 30_000),
  }).catch(() => undefined);
  statuses[phase].push(r?.status ?? 0);
  await r?.arrayBuffer();
}

/** A flood client: one request after another until `stopAt`. */
async function client(n: number, stopAt: number): Promise<void> {
  for (let i = n; performance.now() < stopAt; i++) await send("flood", i);
}

/** `count` noop requests, one every phaseMs / count. */
async function paced(count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, (_, i) => Bun.sleep((i * d.phaseMs) / count).then(() => send("noop", i))));
}

const post = (m: FloodMessage) => parentPort!.postMessage(m);
post({ type: "ready" });
const phases: Phase[] = ["noop", ...Array.from({ length: d.rounds }, () => ["flood", "noop"] as Phase[]).flat()];
// Before the first flood phase: one request per client.
let lastFlood = d.clients;
for (const phase of phases) {
  post({ type: "phase", phase });
  if (phase === "noop") {
    await Promise.all([paced(lastFlood), Bun.sleep(d.phaseMs)]);
    continue;
  }
  const before = statuses.flood.length;
  const stopAt = performance.now() + d.phaseMs;
  await Promise.all(Array.from({ length: d.clients }, (_, n) => client(n, stopAt)));
  lastFlood = Math.max(1, statuses.flood.length - before);
}
post({ type: "done", statuses });
