// What the connection gate costs: the compiled executable twice on one data dir, once with
// --max-connections 0 (Bun.serve on the public port) and once with the gate, each driven for a few
// seconds with keep-alive connections: GET /healthz, and the download of a ~1 MB PDF. Reports requests/s
// and the server's CPU time per request (user + system, all threads, from /proc).
// Run: bun scripts/gate-bench.ts [--seconds 5] [--concurrency 4] [--rounds 2]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../src/lib/ports";
import { readStat, TICK_MS } from "../src/lib/process-tree";

const repoRoot = join(import.meta.dir, "..");

const { values } = parseArgs({ options: { seconds: { type: "string" }, concurrency: { type: "string" }, rounds: { type: "string" } } });
const seconds = Number(values.seconds ?? 5);
const concurrency = Number(values.concurrency ?? 4);
const rounds = Number(values.rounds ?? 2);

const dir = mkdtempSync(join(tmpdir(), "rg-gate-bench-"));
const bin = join(dir, "reportgen");
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("REPORTGEN_"))) as Record<string, string>;
if (Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "build.ts"), bin]).exitCode !== 0) throw new Error("build failed");
const dataDir = join(dir, "data");
const key = Bun.spawnSync([bin, "admin", "create-key", "--name", "bench", "--data-dir", dataDir], { env }).stdout.toString().trim();

/** The process's CPU seconds so far. */
const cpu = (pid: number) => ((readStat(pid)?.cpu ?? 0) * TICK_MS) / 1000;

async function serve(maxConnections: string) {
  const port = await freePort();
  const proc = Bun.spawn(
    [
      bin,
      "serve",
      "--data-dir",
      dataDir,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--max-connections",
      maxConnections,
      "--log-level",
      "warn",
    ],
    { env, stdout: "ignore", stderr: "inherit" },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) break;
    } catch {}
    if (i > 600) throw new Error("server did not start");
    await Bun.sleep(100);
  }
  return { proc, base };
}

/** `concurrency` loops fetching `url` for `seconds`: requests/s and server CPU ms per request. */
async function drive(pid: number, url: string) {
  const end = performance.now() + seconds * 1000;
  let n = 0;
  let bytes = 0;
  const c0 = cpu(pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const res = await fetch(url);
        bytes += (await res.arrayBuffer()).byteLength;
        if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
        n++;
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  return { rps: n / s, cpuMs: ((cpu(pid) - c0) * 1000) / n, kb: bytes / n / 1024 };
}

// A ~1 MB PDF: pages of random hex, which compresses about 2:1.
const rows = Array.from(
  { length: 20_000 },
  () => `<p>${crypto.getRandomValues(new Uint8Array(40)).reduce((s, b) => s + b.toString(16).padStart(2, "0"), "")}</p>`,
).join("");
const first = await serve("0");
const sub = await fetch(`${first.base}/api/v1/generate-pdf-async`, {
  method: "POST",
  headers: { "x-api-key": key, "content-type": "application/json" },
  body: JSON.stringify({ engine: "raw", html_template: `<body style="font:9px monospace">${rows}</body>` }),
});
const id = ((await sub.json()) as { report_id: string }).report_id;
const done = (await (await fetch(`${first.base}/api/v1/reports/${id}?wait=30`, { headers: { "x-api-key": key } })).json()) as {
  data: { status: string };
};
if (done.data.status !== "succeeded") throw new Error(`report ${done.data.status}`);
const link = new URL(
  ((await (await fetch(`${first.base}/api/v1/reports/${id}/download`, { headers: { "x-api-key": key } })).json()) as { data: string }).data,
);
first.proc.kill();
await first.proc.exited;

const results: Record<string, { healthz: number[][]; pdf: number[][] }> = {
  direct: { healthz: [], pdf: [] },
  gate: { healthz: [], pdf: [] },
};
let pdfKb = 0;
for (let r = 0; r < rounds; r++) {
  for (const [name, max] of [
    ["direct", "0"],
    ["gate", "1000"],
  ] as const) {
    const s = await serve(max);
    await drive(s.proc.pid, `${s.base}/healthz`); // warm-up
    const h = await drive(s.proc.pid, `${s.base}/healthz`);
    const p = await drive(s.proc.pid, `${s.base}${link.pathname}${link.search}`);
    pdfKb = p.kb;
    results[name]!.healthz.push([h.rps, h.cpuMs]);
    results[name]!.pdf.push([p.rps, p.cpuMs]);
    s.proc.kill();
    await s.proc.exited;
  }
}
rmSync(dir, { recursive: true, force: true });

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`concurrency ${concurrency}, ${seconds} s per run, ${rounds} rounds (median); PDF ${pdfKb.toFixed(0)} KB`);
console.log("| | direct req/s | gate req/s | direct CPU ms/req | gate CPU ms/req | gate extra CPU ms/req |");
console.log("|---|---|---|---|---|---|");
for (const what of ["healthz", "pdf"] as const) {
  const d = results.direct![what];
  const g = results.gate![what];
  const [drps, dcpu, grps, gcpu] = [
    median(d.map((x) => x[0]!)),
    median(d.map((x) => x[1]!)),
    median(g.map((x) => x[0]!)),
    median(g.map((x) => x[1]!)),
  ];
  console.log(
    `| ${what === "pdf" ? "PDF download" : "GET /healthz"} | ${drps.toFixed(0)} | ${grps.toFixed(0)} | ${dcpu.toFixed(3)} | ${gcpu.toFixed(3)} | ${(gcpu - dcpu).toFixed(3)} |`,
  );
}
