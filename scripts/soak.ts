// Load and leak checks for the whole service (issue: bounded under load, no leaks over time).
//
//   bun scripts/soak.ts [--burst 2000] [--soak 5000] [--concurrency 4] [--recycle-after 500] [--json FILE]
//
// 1. Burst: N reports submitted at once. All must be accepted (or refused cleanly with 429/503 once a
//    cap is reached) and all accepted ones must complete. Prints submit latency, drain rate, peak memory.
// 2. Soak: M consecutive reports. Prints the Chromium process count and the memory of the service tree
//    after warm-up and at the end, failures, and temp files left behind.
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../src/lib/ports";
import { commandLine, descendantsOf as descendants, statusField } from "../src/lib/process-tree";

const { values: args } = parseArgs({
  options: {
    burst: { type: "string", default: "2000" },
    soak: { type: "string", default: "5000" },
    concurrency: { type: "string", default: "4" },
    "recycle-after": { type: "string", default: "500" },
    json: { type: "string" },
  },
});
const root = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "reportgen-soak-"));
const invoice = readFileSync(join(root, "..", "shared", "fixtures", "templates", "invoice.html"), "utf8").replace(
  "Invoice #: 123",
  "Invoice #: <%= n %>",
);
const body = (n: number) => JSON.stringify({ engine: "ejs", html_template: invoice, data: { n } });

const key = Bun.spawnSync([process.execPath, join(root, "src/main.ts"), "admin", "create-key", "--name", "soak", "--data-dir", dir])
  .stdout.toString()
  .trim();
const port = await freePort();
const server = Bun.spawn(
  [
    process.execPath,
    join(root, "src/main.ts"),
    "serve",
    "--data-dir",
    dir,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--rate-limit",
    "0",
    "--account-queue-limit",
    "100000",
    "--queue-limit",
    "100000",
    "--recycle-after",
    args["recycle-after"]!,
    "--log-level",
    "warn",
  ],
  { stdout: "ignore", stderr: "inherit" },
);
const base = `http://127.0.0.1:${port}`;
while (true) {
  try {
    if ((await fetch(`${base}/healthz`)).status === 200) break;
  } catch {}
  await Bun.sleep(50);
}
const db = new Database(join(dir, "reportgen.db"), { readonly: true });
const counts = () =>
  Object.fromEntries(
    db
      .query<{ status: string; n: number }, []>("SELECT status, count(*) AS n FROM reports GROUP BY status")
      .all()
      .map((r) => [r.status, r.n]),
  ) as Record<string, number>;

function treeRssMb(): number {
  let kb = 0;
  for (const pid of [server.pid, ...descendants(server.pid)]) {
    // VmRSS is a counter; smaps_rollup's Rss walks every mapping (~3.5 ms of system CPU per Chromium process).
    kb += statusField(pid, "VmRSS") ?? 0;
  }
  return kb / 1024;
}
const chromiumCount = () => descendants(server.pid).filter((pid) => commandLine(pid).includes("chromium")).length;
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRssMb())), 200);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;

async function submit(n: number): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/generate-pdf-async`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: body(n),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}
async function waitDrained(): Promise<void> {
  for (;;) {
    const c = counts();
    if (!c.queued && !c.processing) return;
    await Bun.sleep(250);
  }
}

// 1. Burst
const burstN = Number(args.burst);
const tBurst = performance.now();
const submits = await Promise.all(Array.from({ length: burstN }, (_, i) => submit(i)));
const submittedIn = performance.now() - tBurst;
const accepted = submits.filter((s) => s.status === 202).length;
const refused = submits.filter((s) => s.status === 429 || s.status === 503).length;
const other = burstN - accepted - refused;
// Submit latency while the queue drains: two probes a second until the burst's reports are done.
const drainSubmits: number[] = [];
let draining = true;
const prober = (async () => {
  while (draining) {
    drainSubmits.push((await submit(-1)).ms);
    await Bun.sleep(500);
  }
})();
for (;;) {
  const c = counts();
  if ((c.succeeded ?? 0) + (c.failed ?? 0) >= accepted) break;
  await Bun.sleep(250);
}
draining = false;
await prober;
await waitDrained();
const burstSecs = (performance.now() - tBurst) / 1000;
const afterBurst = counts();
const burst = {
  submitted: burstN,
  accepted,
  refused_cleanly: refused,
  other_status: other,
  all_submitted_ms: Math.round(submittedIn),
  drained_s: Number(burstSecs.toFixed(1)),
  pdfs_per_s: Number(((accepted + drainSubmits.length) / burstSecs).toFixed(1)),
  submit_p50_ms_while_draining: Number(pct(drainSubmits, 0.5).toFixed(1)),
  submit_p99_ms_while_draining: Number(pct(drainSubmits, 0.99).toFixed(1)),
  succeeded: afterBurst.succeeded ?? 0,
  failed: afterBurst.failed ?? 0,
  peak_rss_mb: Math.round(peakRss),
};
console.log("burst", burst);

// 2. Soak
const soakN = Number(args.soak);
const conc = Number(args.concurrency);
let next = 0;
let warmRss = 0;
const chromiumBefore = chromiumCount();
const warmAt = Math.min(300, Math.floor(soakN / 10));
const playwrightTemp = () => readdirSync(tmpdir()).filter((f) => f.startsWith("playwright")).length;
const tempBefore = playwrightTemp();
const chromiumSamples: number[] = [];
const tSoak = performance.now();
await Promise.all(
  Array.from({ length: conc }, async () => {
    while (next < soakN) {
      const n = next++;
      const res = await fetch(`${base}/api/v1/generate-pdf-async`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: body(n),
      });
      const { report_id } = (await res.json()) as { report_id: string };
      const dl = (await (
        await fetch(`${base}/api/v1/reports/${report_id}/download?wait=30`, { headers: { "x-api-key": key } })
      ).json()) as { data?: string };
      if (dl.data) await (await fetch(dl.data)).arrayBuffer();
      if (n === warmAt) {
        await Bun.sleep(500);
        warmRss = treeRssMb();
      }
      if (n % 250 === 0) chromiumSamples.push(chromiumCount());
    }
  }),
);
const soakSecs = (performance.now() - tSoak) / 1000;
await Bun.sleep(1000);
const endRss = treeRssMb();
const final = counts();
const soak = {
  reports: soakN,
  seconds: Number(soakSecs.toFixed(1)),
  pdfs_per_s: Number((soakN / soakSecs).toFixed(1)),
  failed_total: final.failed ?? 0,
  chromium_processes_start: chromiumBefore,
  chromium_processes_min_max: [Math.min(...chromiumSamples), Math.max(...chromiumSamples)],
  chromium_processes_end: chromiumCount(),
  rss_after_warmup_mb: Math.round(warmRss),
  rss_end_mb: Math.round(endRss),
  rss_growth_pct: Number((((endRss - warmRss) / warmRss) * 100).toFixed(1)),
  data_tmp_files: readdirSync(join(dir, "tmp")).length,
  playwright_temp_dirs_added: playwrightTemp() - tempBefore,
};
console.log("soak", soak);

clearInterval(sampler);
server.kill("SIGTERM");
await server.exited;
db.close();
rmSync(dir, { recursive: true, force: true });
if (args.json) await Bun.write(args.json, JSON.stringify({ burst, soak }, null, 2));
