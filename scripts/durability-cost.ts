// Measures what "succeeded means durable" costs per PDF on this machine's disk: storing a finished
// PDF and recording it the way the service does (the processor's reserve, whose folder fsync runs
// while Chromium prints; the processor's writeDurably; then the success UPDATE under
// synchronous=FULL) against no durability at all (plain write, UPDATE under NORMAL). The time is
// taken from the end of the print: what the reservation's folder fsync costs is not in it, as in the service.
// Run: bun scripts/durability-cost.ts [--dir DIR] [--n 300] [--kb 40]
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeDurably } from "../src/lib/durable-write";
import { FileStore } from "../src/modules/files/store";

const { values } = parseArgs({ options: { dir: { type: "string" }, n: { type: "string" }, kb: { type: "string" } } });
const n = Number(values.n ?? 300);
const pdf = Buffer.alloc(Number(values.kb ?? 40) * 1024, 0x41);
const base = mkdtempSync(join(values.dir ?? tmpdir(), "rg-durability-"));

/** Main-thread time of the two commits per report (submit INSERT, success UPDATE): the part that blocks HTTP. */
const commitMs: Record<string, number[]> = { fast: [], durable: [] };

async function run(durable: boolean): Promise<number[]> {
  const dir = join(base, durable ? "durable" : "fast");
  const files = new FileStore(dir);
  files.init();
  const db = new Database(join(dir, "t.db"), { create: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(`PRAGMA synchronous = ${durable ? "FULL" : "NORMAL"}`);
  db.exec("CREATE TABLE r (id TEXT PRIMARY KEY, status TEXT, size INTEGER)");
  const ins = db.prepare("INSERT INTO r VALUES (?, 'processing', NULL)");
  const upd = db.prepare("UPDATE r SET status = 'succeeded', size = ? WHERE id = ?");
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = crypto.randomUUID();
    const c0 = performance.now();
    ins.run(id);
    let commit = performance.now() - c0;
    const reserved = durable ? files.reserve(id) : Promise.resolve();
    await Bun.sleep(5); // the print, during which the folder's fsync runs
    const t0 = performance.now();
    if (durable) {
      writeDurably(files.pathOf(id), pdf); // what the report processor does
      await reserved;
    } else {
      writeFileSync(files.pathOf(id), pdf);
    }
    const c1 = performance.now();
    upd.run(pdf.length, id);
    commit += performance.now() - c1;
    commitMs[durable ? "durable" : "fast"]!.push(commit);
    times.push(performance.now() - t0);
  }
  db.close();
  return times;
}

const stats = (t: number[]) => {
  const s = [...t].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(2);
  return `mean ${(t.reduce((a, b) => a + b, 0) / t.length).toFixed(2)} ms, p50 ${q(0.5)}, p90 ${q(0.9)}, p99 ${q(0.99)}`;
};

const rounds: Record<string, number[]> = { fast: [], durable: [] };
for (let r = 0; r < 3; r++) {
  rounds.fast!.push(...(await run(false)));
  rounds.durable!.push(...(await run(true)));
  rmSync(join(base, "fast"), { recursive: true, force: true });
  rmSync(join(base, "durable"), { recursive: true, force: true });
}
rmSync(base, { recursive: true, force: true });
console.log(`${n * 3} PDFs of ${pdf.length / 1024} KB each, store + record:`);
console.log(`  write + UPDATE (synchronous=NORMAL):                    ${stats(rounds.fast!)}`);
console.log(`  write + fsync + UPDATE (synchronous=FULL), dir synced:  ${stats(rounds.durable!)}`);
console.log(`main-thread commits per report (INSERT at submit + UPDATE at success):`);
console.log(`  synchronous=NORMAL: ${stats(commitMs.fast!)}`);
console.log(`  synchronous=FULL:   ${stats(commitMs.durable!)}`);
