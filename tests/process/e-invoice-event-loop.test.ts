// POST /api/v1/e-invoices/validate over real HTTP, against a real server process (--role api, no
// Chromium), with the shared corpus's ten largest invoices: each answers 200 with the same result as the
// checker run here. Then the target: while the ten are checked at once, again and again, /livez
// p99 stays within 50 ms of its p99 on the idle server, measured in this same test (a busy machine moves
// both). That target is NOT met yet, so that test is a todo (`bun test --todo` runs it).
// Measured on the shared 2-core machine (load average 15-26 from other work), two runs or more each:
// - at first: idle p99 23-104 ms, under load 415-651 ms, 3-9 rounds in 6 s;
// - the document handed to the checker thread as a transferred copy instead of a structured clone of the
//   body's Buffer (0.8 ms median, 46 ms p90 on the event loop for 435 kB): idle 4.5 ms, load 322-348 ms,
//   14-19 rounds;
// - and the checker threads at niceness 10 (the kernel runs the event loop first): idle 5-13 ms, load
//   115-170 ms, 25-28 rounds.
// What is left: the main thread spends ~4-6 ms of CPU per check over HTTP (per-thread CPU from /proc,
// sequential requests, against ~0.9 ms for the same upload refused before the check with rules=bogus,
// and ~0.75 ms for the pool's round trip alone in-process); the rest of that gap is not yet found. The
// connection gate relays every upload through the main thread (src/http/connection-gate.ts).
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateEInvoice } from "../../src/einvoice/validate";
import { corpusAbsent, EINVOICE_SHARED } from "../helpers/einvoice-corpus";
import { runCli, type ServerProcess, sourceCommand, spawnServer } from "../helpers/process";

setDefaultTimeout(180_000);
const dir = mkdtempSync(join(tmpdir(), "reportgen-einvoice-loop-"));
let server: ServerProcess | undefined;
afterAll(async () => {
  server?.proc.kill("SIGKILL");
  await server?.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

const LOAD_MS = 6_000;
const PROBE_GIVE_UP_MS = 5_000;

/** The corpus's ten largest XML files. */
function largest(n: number): string[] {
  const all: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".xml")) all.push(p);
    }
  };
  walk(join(EINVOICE_SHARED, "corpus"));
  return all.sort((a, b) => statSync(b).size - statSync(a).size).slice(0, n);
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(0.99 * xs.length) - 1)]!;

async function livez(base: string): Promise<number> {
  const t0 = performance.now();
  try {
    const r = await fetch(`${base}/livez`, { signal: AbortSignal.timeout(PROBE_GIVE_UP_MS) });
    await r.arrayBuffer();
  } catch (e) {
    if ((e as Error).name !== "TimeoutError") throw e;
    return PROBE_GIVE_UP_MS;
  }
  return performance.now() - t0;
}

async function probeUntil(base: string, stopAt: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!stopAt()) {
    times.push(await livez(base));
    await Bun.sleep(10);
  }
  return times;
}

interface Setup {
  base: string;
  key: string;
  files: { p: string; bytes: Uint8Array }[];
  expected: unknown[];
}
let setup: Promise<Setup> | undefined;
/** The server, a key and the ten files: made once, for both tests. */
const ready = () =>
  (setup ??= (async () => {
    const files = largest(10).map((p) => ({ p, bytes: readFileSync(p) }));
    const expected = files.map((f) => validateEInvoice(f.bytes));
    const r = runCli(sourceCommand, ["admin", "create-key", "--name", "load", "--account", "acme", "--data-dir", dir]);
    if (r.code !== 0) throw new Error(r.stderr);
    const key = r.stdout.trim();
    server = await spawnServer(sourceCommand, dir, { extraArgs: ["--role", "api", "--log-level", "error"] });
    const base = server.baseUrl;
    for (const end = Date.now() + 30_000; ; await Bun.sleep(50)) {
      if ((await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200) break;
      if (Date.now() > end) throw new Error(`the server did not become ready:\n${server.stderr()}`);
    }
    return { base, key, files, expected };
  })());

const check = ({ base, key }: Setup, bytes: Uint8Array) =>
  fetch(`${base}/api/v1/e-invoices/validate`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/xml" },
    body: bytes as Uint8Array<ArrayBuffer>,
  });

const skip = corpusAbsent ? ` (skipped: ${corpusAbsent})` : "";

test.skipIf(corpusAbsent !== undefined)(`the ten largest corpus invoices over HTTP: 200 and the checker's own result${skip}`, async () => {
  const s = await ready();
  const answers = await Promise.all(s.files.map((f) => check(s, f.bytes)));
  for (const [i, a] of answers.entries()) {
    expect(a.status).toBe(200);
    expect(((await a.json()) as any).data).toEqual(JSON.parse(JSON.stringify(s.expected[i])));
  }
});

// Open: see the header. A todo, not a skip, so `bun test --todo` measures it.
test.todo(`ten large invoices checked at once: /livez p99 within 50 ms of idle${skip}`, async () => {
  if (corpusAbsent) return;
  const { base, key, files } = await ready();
  // Baseline: the idle server, in this run.
  const idleEnd = performance.now() + 2_000;
  const idle = await probeUntil(base, () => performance.now() > idleEnd);
  // Load: the ten at once, again and again, from a process of its own, while /livez is probed here.
  let done = false;
  const flood = Bun.spawn(
    [process.execPath, join(import.meta.dir, "..", "helpers", "einvoice-flood.ts"), base, key, String(LOAD_MS), ...files.map((f) => f.p)],
    { stdout: "pipe", stderr: "inherit" },
  );
  const load = (async () => {
    const out = await new Response(flood.stdout).text();
    await flood.exited;
    done = true;
    return JSON.parse(out) as { rounds: number; statuses: number[] };
  })();
  const busy = await probeUntil(base, () => done);
  const { rounds, statuses } = await load;
  expect(statuses).toEqual([200]);
  console.log(
    `10 largest corpus invoices × ${rounds} rounds over HTTP: /livez p99 idle ${p99(idle).toFixed(1)} ms (${idle.length} probes), ` +
      `under load ${p99(busy).toFixed(1)} ms (${busy.length} probes)`,
  );
  expect(rounds).toBeGreaterThan(0);
  expect(p99(busy)).toBeLessThanOrEqual(50 + p99(idle));
});
