// The bench's cluster mode (bun scripts/bench.ts --cluster) as a user runs it: one SQLite instance and
// two instances on a throwaway PostgreSQL + moto_server bucket, a handful of invoices through each side
// (requests round-robin over the two instances, long poll), then the table with the ratios, the
// coordination's costs (PostgreSQL statements, the bucket's traffic), the targets and the JSON. It must
// end cleanly (exit 0, nothing left running), and its figures must be real: every PDF rendered on the
// side it was sent to, the cluster's by its two instances between them, each uploaded and read once.
import { expect, setDefaultTimeout } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../helpers/process";
import { sharedMissing, testIf } from "../helpers/shared";

setDefaultTimeout(120_000);

/** Whether something accepts TCP connections at the URL's host and port. */
const listening = (u: URL) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(Number(u.port), u.hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

interface Row {
  template: string;
  c: number;
  side: "single" | "cluster";
  pdfs_per_s: number;
  ratio_to_single: number;
  p50_ms: number;
  p95_ms: number;
  machine_cpu_ms_per_pdf: number;
  own_cpu_ms_per_pdf: Record<"instances" | "postgres" | "bucket" | "bench", number>;
  instances_cpu_ratio_to_single: number;
  instances_cpu_ms_per_pdf_by_process: Record<"server" | "chromium" | "sandbox" | "other", number>;
  statements_per_report: number | null;
  round_trips_per_report: number | null;
  bucket_per_report: { requests: number; sent_bytes: number; received_bytes: number } | null;
  statements_by_text: { query: string; per_report: number }[] | null;
}

// The cluster bench prints the public invoice fixture, which only shared/ beside the clone holds.
const testWithInvoice = testIf(process.env.BENCH_INVOICE ? undefined : sharedMissing("fixtures/templates/invoice.html"));

testWithInvoice(
  "bench --cluster: two instances on PostgreSQL + S3 against one on SQLite, CPU, statements and bucket bytes per report, the targets, nothing left behind",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "rg-bench-cluster-"));
    try {
      const json = join(dir, "bench.json");
      const t0 = performance.now();
      // 1 round, c = 4 (the targets' concurrency), 8 invoices per measurement: warm-up 8 PDFs a side, then 8 a side.
      const args = ["--cluster", "--rounds", "1", "--concurrency", "4", "--count", "8", "--templates", "invoice-ejs", "--json", json];
      const proc = Bun.spawn([process.execPath, join(repoRoot, "scripts", "bench.ts"), ...args], {
        cwd: repoRoot,
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      console.log(`bench --cluster took ${Math.round(performance.now() - t0)} ms`);
      if (code !== 0) console.error(err);
      expect(code).toBe(0);
      expect(out).toMatch(/invoice-ejs\s+4 single\s+[\d.]+\s+1\.00/);
      expect(out).toMatch(/invoice-ejs\s+4 cluster\s+[\d.]+\s+[\d.]+/);
      for (const column of ["inst÷1", "pg", "s3", "stmts", "trips", "s3 req", "up KB", "down KB"]) expect(out).toContain(column);
      expect(out).toMatch(/the instances' CPU by process, ms per PDF, single → cluster: server [\d.]+ → [\d.]+, chromium/);
      // The two targets of the invoice at c = 4, met or not on this busy machine: each has its line.
      expect(out).toMatch(
        /^(PASS|FAIL) {2}invoice-ejs c=4: the cluster's instances' CPU per report ÷ the SQLite instance's: [\d.]+ <= 1\.05$/m,
      );
      expect(out).toMatch(/^(PASS|FAIL) {2}invoice-ejs c=4: PostgreSQL statements per report: [\d.]+ <= 8\.00$/m);

      const figures = JSON.parse(readFileSync(json, "utf8")) as {
        mode: string;
        rendered_by_instance: { single: number; cluster: number[] };
        results: Row[];
        targets: { name: string; value: number; limit: number; pass: boolean }[];
        loadavg_per_round: number[][];
        endpoints: { single: string; cluster: string[]; postgres: string; bucket: string };
      };
      expect(figures.mode).toBe("cluster");
      expect(figures.loadavg_per_round.length).toBe(3); // start, the round, the end
      const row = (side: Row["side"]) => figures.results.find((r) => r.side === side && r.c === 4)!;
      for (const side of ["single", "cluster"] as const) {
        const r = row(side);
        expect(r.pdfs_per_s).toBeGreaterThan(0);
        expect(r.p95_ms).toBeGreaterThanOrEqual(r.p50_ms);
        expect(r.machine_cpu_ms_per_pdf).toBeGreaterThan(0);
        expect(r.own_cpu_ms_per_pdf.instances).toBeGreaterThan(0);
        // The split by process adds up to the instances' figure (one round: the same readings), Chromium's share the largest.
        const split = r.instances_cpu_ms_per_pdf_by_process;
        expect(split.server + split.chromium + split.sandbox + split.other).toBeCloseTo(r.own_cpu_ms_per_pdf.instances, 6);
        expect(split.chromium).toBeGreaterThan(split.server);
      }
      expect(row("single").ratio_to_single).toBe(1);
      const ratio = row("cluster").ratio_to_single;
      expect(ratio).toBe(row("cluster").pdfs_per_s / row("single").pdfs_per_s);
      // The single instance has no database server nor bucket of its own to count.
      expect(row("single").own_cpu_ms_per_pdf.postgres).toBe(0);
      expect(row("single").own_cpu_ms_per_pdf.bucket).toBe(0);
      expect(row("single").statements_per_report).toBeNull();
      expect(row("single").bucket_per_report).toBeNull();
      // The cluster's own CPU against the single instance's, and what its coordination cost per report.
      const cluster = row("cluster");
      expect(row("single").instances_cpu_ratio_to_single).toBe(1);
      expect(cluster.instances_cpu_ratio_to_single).toBe(cluster.own_cpu_ms_per_pdf.instances / row("single").own_cpu_ms_per_pdf.instances);
      expect(cluster.own_cpu_ms_per_pdf.postgres).toBeGreaterThan(0);
      expect(cluster.own_cpu_ms_per_pdf.bucket).toBeGreaterThan(0);
      // At least the insert, the claim and the completion of each report; BEGIN/COMMIT count as round trips only.
      expect(cluster.statements_per_report!).toBeGreaterThanOrEqual(3);
      expect(cluster.round_trips_per_report!).toBeGreaterThanOrEqual(cluster.statements_per_report!);
      expect(cluster.statements_by_text!.some((s) => /\binsert into reports\b/i.test(s.query))).toBe(true);
      // Each invoice went up to the bucket once and came back once (the download), a PDF of some KB.
      const bucket = cluster.bucket_per_report!;
      expect(bucket.sent_bytes).toBeGreaterThan(10_000);
      expect(bucket.received_bytes).toBe(bucket.sent_bytes);
      expect(bucket.requests).toBeGreaterThanOrEqual(2);
      expect(figures.targets.map((x) => x.limit)).toEqual([1.05, 8]);
      // 16 invoices a side (warm-up + round): the single instance rendered its own; the cluster's two
      // instances rendered theirs between them, whichever of them claimed each.
      expect(figures.rendered_by_instance.single).toBe(16);
      expect(figures.rendered_by_instance.cluster.length).toBe(2);
      expect(figures.rendered_by_instance.cluster.reduce((a, b) => a + b, 0)).toBe(16);

      // Nothing of the run is left: no instance, no PostgreSQL, no moto_server listens any more.
      const e = figures.endpoints;
      for (const url of [e.single, ...e.cluster, e.bucket, e.postgres]) {
        expect({ url, listening: await listening(new URL(url)) }).toEqual({ url, listening: false });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
