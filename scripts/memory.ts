// The service's memory and start time, as the README reports them: the compiled executable on default
// settings in a temporary data dir. Prints PSS by process kind (src/lib/process-tree.ts reads it from
// /proc/PID/smaps_rollup) idle, at the peak of a burst, and 30 and 60 s after it, and how long the
// process took from its start to a 200 from /readyz. "Idle" is 45 s after ready by default: past the
// server's first quiet-period trim (--memory-trim-after, 30 s), which the service reaches on its own
// after its start; the count of trims (reportgen_memory_trims_total) is printed with each sample.
//
//   bun scripts/memory.ts [--binary dist/reportgen] [--idle 45] [--clients 16] [--reports 240] [-- serve flags]
//
// Without --binary the executable is built first (scripts/build.ts) into a temporary folder. The burst is
// 16 clients that each submit the bench's invoice (scripts/bench-templates.ts) and fetch it with the
// long poll (GET …/download?wait=30) until 240 PDFs are done; PSS is sampled every 200 ms meanwhile and
// the peak is the sample with the highest total. Run it on a quiet machine: the start time depends on the
// load, and PSS on what else runs (another Chromium on the machine shares, and so lowers, the PSS of this
// one's library pages): USS, the private memory alone, is printed next to it for that reason.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../src/lib/ports";
import { memoryOf, processKind, treeCpuMs, treeOf } from "../src/lib/process-tree";
import { SANDBOX_CHILD_ARG } from "../src/render/sandbox-protocol";
import { benchTemplates } from "./bench-templates";

const ROOT = join(import.meta.dir, "..");
const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const own = dash < 0 ? argv : argv.slice(0, dash);
const serveArgs = dash < 0 ? [] : argv.slice(dash + 1);
const flag = (name: string) => {
  const i = own.indexOf(`--${name}`);
  return i < 0 ? undefined : own[i + 1];
};
const IDLE_S = Number(flag("idle") ?? 45);
const CLIENTS = Number(flag("clients") ?? 16);
const REPORTS = Number(flag("reports") ?? 240);
const MiB = 1024 * 1024;

const work = mkdtempSync(join(tmpdir(), "reportgen-memory-"));
let binary = flag("binary");
if (!binary) {
  binary = join(work, "reportgen");
  const b = Bun.spawnSync([process.execPath, join(ROOT, "scripts", "build.ts"), binary], { stderr: "inherit" });
  if (b.exitCode !== 0) throw new Error("the build failed");
}

type Sample = { total: number; uss: number; byKind: Map<string, number[]>; ussByKind: Map<string, number> };

/** PSS of every live process of the service's tree, grouped by kind. */
function sample(serverPid: number): Sample {
  const byKind = new Map<string, number[]>();
  const ussByKind = new Map<string, number>();
  let total = 0;
  let uss = 0;
  for (const pid of treeOf(serverPid)) {
    const m = memoryOf(pid);
    if (!m) continue;
    const kind = processKind(pid, serverPid, SANDBOX_CHILD_ARG);
    (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(m.pss);
    ussByKind.set(kind, (ussByKind.get(kind) ?? 0) + m.uss);
    total += m.pss;
    uss += m.uss;
  }
  return { total, uss, byKind, ussByKind };
}

/** The server's quiet-period memory trims so far (src/lib/memory-trim.ts), from /metrics. */
async function trims(): Promise<string> {
  const text = await (await fetch(`${base}/metrics`)).text().catch(() => "");
  return /^reportgen_memory_trims_total (\d+)/m.exec(text)?.[1] ?? "?";
}

async function show(label: string, s: Sample): Promise<void> {
  const n = [...s.byKind.values()].reduce((a, v) => a + v.length, 0);
  console.log(
    `\n${label}: ${(s.total / MiB).toFixed(0)} MiB PSS in ${n} processes (USS, private only: ${(s.uss / MiB).toFixed(0)} MiB; memory trims so far: ${await trims()})`,
  );
  const rows = [...s.byKind.entries()].sort((a, b) => b[1].reduce((x, y) => x + y) - a[1].reduce((x, y) => x + y));
  for (const [kind, list] of rows) {
    const each = list
      .sort((a, b) => b - a)
      .map((b) => (b / MiB).toFixed(0))
      .join(" + ");
    const sum = list.reduce((a, b) => a + b, 0) / MiB;
    const uss = (s.ussByKind.get(kind) ?? 0) / MiB;
    console.log(`  ${kind.padEnd(38)} ${sum.toFixed(0).padStart(5)} MiB  (${list.length}: ${each}; USS ${uss.toFixed(0)})`);
  }
}

const dataDir = join(work, "data");
const key = Bun.spawnSync([binary, "admin", "create-key", "--name", "memory", "--data-dir", dataDir]).stdout.toString().trim();
if (!key) throw new Error("admin create-key printed no key");
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t0 = performance.now();
const proc = Bun.spawn([binary, "serve", "--data-dir", dataDir, "--port", String(port), "--host", "127.0.0.1", ...serveArgs], {
  stdout: Bun.file(join(work, "service.log")),
  stderr: Bun.file(join(work, "service.log")),
});
process.on("exit", () => proc.exitCode === null && proc.kill("SIGKILL"));
let startMs = 0;
for (;;) {
  if (proc.exitCode !== null) throw new Error(`the service exited with ${proc.exitCode}; see ${work}/service.log`);
  const r = await fetch(`${base}/readyz`).catch(() => undefined);
  await r?.arrayBuffer();
  if (r?.status === 200) {
    startMs = performance.now() - t0;
    break;
  }
  if (performance.now() - t0 > 60_000) throw new Error("not ready within 60 s");
  await Bun.sleep(5);
}
// The CPU the start took does not depend on the load as the wall time does: on 2 idle cores the start
// takes at least half of it.
console.log(
  `start: /readyz answered 200 ${startMs.toFixed(0)} ms after the process was spawned; ${treeCpuMs(proc.pid).toFixed(0)} ms of CPU (the whole tree), load average ${loadavg()[0]!.toFixed(1)}`,
);

await Bun.sleep(IDLE_S * 1000);
await show(`idle (${IDLE_S} s after ready)`, sample(proc.pid));

const invoice = benchTemplates().find((t) => t.name === "invoice-ejs")!;
const body = JSON.stringify({ engine: invoice.engine, html_template: invoice.html_template, data: invoice.data });
let peak: Sample = { total: 0, uss: 0, byKind: new Map(), ussByKind: new Map() };
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    const s = sample(proc.pid);
    if (s.total > peak.total) peak = s;
    await Bun.sleep(200);
  }
})();
let left = REPORTS;
const headers = { "x-api-key": key, "content-type": "application/json" };
const burstT0 = performance.now();
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (left-- > 0) {
      const r = await fetch(`${base}/api/v1/generate-pdf-async`, { method: "POST", headers, body });
      const { report_id } = (await r.json()) as { report_id: string };
      for (;;) {
        const d = await fetch(`${base}/api/v1/reports/${report_id}/download?wait=30`, { headers });
        if (d.status === 202) {
          await d.arrayBuffer();
          continue;
        }
        const j = (await d.json()) as { data?: string };
        if (d.status !== 200 || !j.data) throw new Error(`report ${report_id}: ${d.status} ${JSON.stringify(j)}`);
        await (await fetch(j.data)).arrayBuffer();
        break;
      }
    }
  }),
);
sampling = false;
await sampler;
const burstS = (performance.now() - burstT0) / 1000;
await show(`peak (${CLIENTS} clients, ${REPORTS} invoices with ?wait=30, ${burstS.toFixed(1)} s)`, peak);
await Bun.sleep(30_000);
await show("30 s after the burst", sample(proc.pid));
await Bun.sleep(30_000);
await show("60 s after the burst", sample(proc.pid));

proc.kill("SIGTERM");
await proc.exited;
rmSync(work, { recursive: true, force: true });
