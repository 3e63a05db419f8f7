// Claiming a delivery does not wait for an fsync (SQLite): like the report queue's claim, a claim lost in
// a power cut leaves the delivery due, so it is attempted again (at least once), and the main thread is
// spared one sync of the write-ahead log per delivery. Recording the attempt's end stays durable. Shown
// on the system calls of a real process (strace) working on a real database file: between markers it
// writes to stdout, the claim makes no fsync/fdatasync, the record makes one. Skipped without strace.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../helpers/process";

const strace = Bun.which("strace");
const dir = mkdtempSync(join(tmpdir(), "reportgen-claim-sync-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const src = (p: string) => JSON.stringify(join(repoRoot, "src", p));
const SCRIPT = `
import { writeSync } from "node:fs";
import { openDatabase } from ${src("db/client")};
import { migrate } from ${src("db/migrate")};
import { SqliteSql } from ${src("db/sql")};
import { DestinationsRepo } from ${src("modules/destinations/repo")};
const db = openDatabase(process.argv[2]);
migrate(db.$client);
// A due delivery row alone (its report is not needed to claim it).
db.$client.exec("PRAGMA foreign_keys = OFF");
const now = Date.now();
db.$client.run(
  "INSERT INTO report_deliveries (id, report_id, position, destination_id, target, link_origin, status, attempts, created_at, next_attempt_at) " +
    "VALUES ('d1', 'r1', 0, 'x', 'r1.pdf', 'http://localhost', 'pending', 0, ?, ?)",
  [now, now - 1],
);
const repo = new DestinationsRepo(new SqliteSql(db.$client), "worker");
const mark = (m) => writeSync(1, m + "\\n");
mark("CLAIM-BEGIN");
const claimed = await repo.claimDue(Date.now(), 8, 60_000);
mark("CLAIM-END " + claimed.map((d) => d.id + ":" + d.target).join(","));
const recorded = await repo.record("d1", 1, { status: "delivered" }, null, Date.now());
mark("RECORD-END " + recorded);
`;

test.skipIf(!strace)("a delivery's claim commits without an fsync; its record with one", async () => {
  const script = join(dir, "claim.ts");
  const trace = join(dir, "strace.log");
  await Bun.write(script, SCRIPT);
  const p = Bun.spawnSync(
    [
      strace!,
      "-f",
      "-qq",
      "-e",
      "trace=fsync,fdatasync,write",
      "-e",
      "signal=none",
      "-o",
      trace,
      process.execPath,
      script,
      join(dir, "t.db"),
    ],
    { cwd: repoRoot },
  );
  expect(p.exitCode, p.stderr.toString()).toBe(0);
  expect(p.stdout.toString()).toContain("CLAIM-END d1:r1.pdf");
  expect(p.stdout.toString()).toContain("RECORD-END true");
  const lines = readFileSync(trace, "utf8").split("\n");
  const at = (marker: string) => lines.findIndex((l) => l.includes(`write(1, "${marker}`));
  const syncs = (from: number, to: number) => lines.slice(from, to).filter((l) => /\b(fsync|fdatasync)\(/.test(l)).length;
  const [begin, end, recorded] = [at("CLAIM-BEGIN"), at("CLAIM-END"), at("RECORD-END")];
  expect(begin).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(begin);
  expect(recorded).toBeGreaterThan(end);
  expect(syncs(begin, end)).toBe(0);
  // The same trace sees the durable commit's sync: the zero above is not strace missing it.
  expect(syncs(end, recorded)).toBeGreaterThanOrEqual(1);
});
