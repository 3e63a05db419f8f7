// The bench's delivery mode (bun scripts/bench.ts --delivery) as a user runs it: one instance, invoices with
// and without options.deliver to an https moto_server bucket at nice 19, a few per side, then the table, the
// ratios paired by round and the two targets. It must end cleanly (exit 0, nothing left running), and its
// figures must be real: every delivery recorded (the bench checks that itself and fails otherwise).
import { expect, setDefaultTimeout } from "bun:test";
import { connect } from "node:net";
import { join } from "node:path";
import { isAlive } from "../../src/lib/process-tree";
import { repoRoot } from "../helpers/process";
import { sharedMissing, testIf } from "../helpers/shared";

setDefaultTimeout(180_000);

const listening = (u: URL) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(Number(u.port), u.hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

// The bench prints the public invoice fixture, which only shared/ beside the clone holds.
const testWithInvoice = testIf(process.env.BENCH_INVOICE ? undefined : sharedMissing("fixtures/templates/invoice.html"));

testWithInvoice("bench --delivery: plain and deliver sides, CPU by process, paired ratios, the targets, nothing left behind", async () => {
  const args = ["--delivery", "--rounds", "1", "--count", "8"];
  const proc = Bun.spawn([process.execPath, join(repoRoot, "scripts", "bench.ts"), ...args], {
    cwd: repoRoot,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) console.error(err);
  expect(code).toBe(0);
  expect(err).toMatch(/moto_server over https \(pid \d+\) at nice 19/);
  expect(out).toContain("runs at nice 19 on the same machine: in real life it is another machine");
  expect(out).toMatch(/^ 4 plain\s+[\d.]+\s+1\.00\s/m);
  expect(out).toMatch(/^ 4 deliver\s+[\d.]+\s+[\d.]+\s/m);
  for (const column of ["server", "chromium", "sandbox", "bucket"]) expect(out).toContain(column);
  expect(out).toMatch(/paired by round \(median of deliver ÷ plain\): throughput [\d.]+ \[[\d.]+\], service CPU [\d.]+/);
  expect(out).toMatch(/^(PASS|FAIL) {2}c=4: deliver ÷ plain throughput \(paired by round\) [\d.]+ >= 0\.95$/m);
  expect(out).toMatch(/^(PASS|FAIL) {2}c=4: deliver ÷ plain service CPU per invoice \(paired by round\) [\d.]+ <= 1\.05$/m);
  // The bucket did the uploads' other half: its CPU shows on the deliver line only.
  const bucketOf = (side: string) => Number(new RegExp(`^ 4 ${side} .* ([\\d.]+) +[\\d.]+$`, "m").exec(out)?.[1]);
  expect(bucketOf("deliver")).toBeGreaterThan(bucketOf("plain"));

  // Nothing of the run is left: neither the service nor moto_server.
  const service = /the service at (http:\/\/[\d.:]+)/.exec(err)![1]!;
  const moto = Number(/moto_server over https \(pid (\d+)\)/.exec(err)![1]);
  expect(await listening(new URL(service))).toBe(false);
  expect(isAlive(moto)).toBe(false);
});
