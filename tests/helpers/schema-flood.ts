// A worker thread that floods a server with the most expensive data_schema checks the data limits allow
// (tests/process/schema-event-loop.test.ts): it runs apart from the thread that times the probes, so the
// clients' own work (4 MB bodies, their garbage) never delays a probe's clock.
import { parentPort, workerData } from "node:worker_threads";

export interface FloodData {
  base: string;
  key: string;
  evilId: string;
  uniqueId: string;
  evilSchema: unknown;
  clients: number;
  durationMs: number;
}

const d = workerData as FloodData;
// ~4.4 MB: each string makes a backtracking engine try 2^25 ways before it fails on the "!".
const evilRows = Array.from({ length: 150_000 }, () => `${"a".repeat(25)}!`);
// 99,000 items and as many keys: within the 200,000 of --data-max-keys; uniqueItems compares every pair.
const uniqueRows = Array.from({ length: 99_000 }, (_, i) => ({ i }));
const bodies = [
  { path: "/generate-pdf-async", body: JSON.stringify({ template_id: d.evilId, data: { rows: evilRows } }) },
  { path: "/generate-pdf-async", body: JSON.stringify({ template_id: d.uniqueId, data: { rows: uniqueRows } }) },
  {
    path: "/templates",
    body: JSON.stringify({ name: "t", engine: "ejs", html_template: "<p>", data_schema: d.evilSchema, sample_data: { rows: evilRows } }),
  },
];
parentPort!.postMessage({ type: "ready" });
const stopAt = performance.now() + d.durationMs;
const statuses: number[] = [];
async function client(n: number): Promise<void> {
  for (let i = n; performance.now() < stopAt; i++) {
    const b = bodies[i % bodies.length]!;
    const r = await fetch(`${d.base}/api/v1${b.path}`, {
      method: "POST",
      headers: { "x-api-key": d.key, "content-type": "application/json" },
      body: b.body,
      signal: AbortSignal.timeout(d.durationMs + 30_000),
    }).catch(() => undefined);
    statuses.push(r?.status ?? 0);
    await r?.arrayBuffer();
  }
}
await Promise.all(Array.from({ length: d.clients }, (_, n) => client(n)));
parentPort!.postMessage({ type: "done", statuses });
