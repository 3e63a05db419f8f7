// What authenticating a request costs, without Chromium: the in-process HTTP app (app.http.handle, no
// socket) answering GET /api/v1/reports/<unknown id> (an authenticated 404: the guard, the key's row,
// the scope check and one report lookup), and KeyAuthenticator.authenticate alone for a value verified
// before. Prints CPU µs per call (this process, user + system), median of interleaved rounds. Run it on two checkouts to compare:
//   bun scripts/auth-bench.ts [--n 5000] [--rounds 7]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bootstrap } from "../src/app/bootstrap";
import { loadConfig } from "../src/config/load";
import { createLogger } from "../src/lib/logger";

const { values } = parseArgs({ options: { n: { type: "string" }, rounds: { type: "string" } } });
const N = Number(values.n ?? 5_000);
const ROUNDS = Number(values.rounds ?? 7);

const dir = mkdtempSync(join(tmpdir(), "rg-auth-bench-"));
const app = await bootstrap({ ...loadConfig({}, {}), dataDir: dir, host: "127.0.0.1", port: 0 }, { logger: createLogger("error") });
const key = (await app.services.keys.createForAccount("bench", "bench")).value;
const url = "http://localhost/api/v1/reports/0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e";

const request = async () => {
  const res = await app.http.handle(new Request(url, { headers: { "x-api-key": key } }));
  if (res.status !== 404) throw new Error(`expected the authenticated 404, got ${res.status}`);
  await res.arrayBuffer();
};
const authenticate = async () => {
  if (!(await app.services.keyAuth.authenticate(key))) throw new Error("the key was refused");
};

/** CPU time of this process per call (user + system), in µs: steadier than wall time on a shared machine. */
async function time(fn: () => Promise<void>): Promise<number> {
  const t0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await fn();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / N;
}

await request(); // the first use runs argon2 once; every later one is the cached path
for (let i = 0; i < 20_000; i++) await request();
const samples: Record<string, number[]> = { request: [], authenticate: [] };
for (let r = 0; r < ROUNDS; r++) {
  // Alternating order, so drift on a shared machine does not favour one side.
  const order = r % 2 ? (["authenticate", "request"] as const) : (["request", "authenticate"] as const);
  for (const side of order) samples[side]!.push(await time(side === "request" ? request : authenticate));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [side, xs] of Object.entries(samples))
  console.log(`${side.padEnd(13)} median ${median(xs).toFixed(1)} CPU µs/call  (rounds: ${xs.map((x) => x.toFixed(1)).join(" · ")})`);
await app.stop();
rmSync(dir, { recursive: true, force: true });
