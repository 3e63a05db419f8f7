// The bench's delivery mode (--delivery; issue 45's cost criterion): what options.deliver to an S3 bucket
// costs the service. ONE instance on its defaults (plus --destination-allow-hosts 127.0.0.1), measured in
// the same run, interleaved, on two sides:
//   plain    the long-poll client of the main bench (POST, wait, GET the PDF through its link);
//   deliver  the same request with options.deliver to an S3 destination: a second moto_server, the
//            customer's bucket, over https (a certificate from the bench's own CA, which the service
//            trusts through NODE_EXTRA_CA_CERTS), so each upload's TLS handshake is counted. A measurement on this side ends when its last PDF is downloaded AND its
//            last delivery is recorded delivered (read from the instance's SQLite file, outside the
//            service), so every upload's CPU falls inside the window it is divided by.
// The bucket runs at nice 19: in real life it is another machine, and on this 2-core box moto_server
// (Python, ~5-10 ms of CPU per PUT) would otherwise take the cores from Chromium and measure moto, not
// reportgen. Its CPU is shown in a column of its own and is not the service's.
// Each line: throughput (and ÷plain), p50, machine CPU per invoice, the service tree's own CPU per invoice
// (and ÷plain) split into the server process (where the delivery worker runs: reading the PDF back,
// signing, the upload), Chromium and the sandboxes; the bucket's and this bench's CPU per invoice.
// Then, per c, the median over rounds of each round's deliver ÷ plain (the two run back to back). Targets (every
// c, on those paired ratios): throughput >= 0.95 x plain, the service tree's CPU per invoice <= 1.05 x plain.
// Defaults: c = 4 unless --concurrency is given, 250 invoices per measurement (--count; --quick 40).
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { commandLine, machineCpuMs, processTable, TICK_MS, treeOf } from "../src/lib/process-tree";
import { median, percentile } from "../src/lib/stats";
import { startS3 } from "../tests/support/moto-server";
import { certificateAuthority, serverCertificate } from "../tests/support/openssl";
import { kindOf } from "./bench-cluster";
import { PROC_KINDS, type ProcKind } from "./bench-cluster-report";
import { renice, ticksOf } from "./bench-cpu-pss";
import { fmt, log } from "./bench-report";
import { COUNT, EXTRA_SERVE_ARGS, flags, quick, ROUNDS, TEMPLATES } from "./bench-settings";
import { driveClients, now, onCleanup, type Service, servicePdf, startService } from "./bench-sides";
import { type Submission, submissionOf } from "./bench-templates";

type DeliverySide = "plain" | "deliver";
const SIDES: DeliverySide[] = ["plain", "deliver"];
type Part = ProcKind | "bucket" | "bench";
const PARTS: Part[] = [...PROC_KINDS, "bucket", "bench"];
/** The bucket's nice value: the lowest priority, so it takes only what the service leaves. */
export const BUCKET_NICE = 19;
const TARGET = { minThroughputRatio: 0.95, maxCpuRatio: 1.05 };

const concurrency = process.argv.some((a) => a.startsWith("--concurrency")) ? flags.concurrency!.split(",").map(Number) : [4];
const countFor = (c: number) => Math.max(COUNT ?? (quick ? 40 : 250), 2 * c);

interface Setup {
  svc: Service;
  motoPid: number;
  db: Database;
  destinationId: string;
}

async function setUp(): Promise<Setup> {
  // The bucket speaks https, as real ones do: each upload's TLS handshake is part of what delivery costs.
  // Its certificate comes from a CA of the bench's own, which the service trusts through NODE_EXTRA_CA_CERTS.
  const certs = mkdtempSync(join(tmpdir(), "reportgen-bench-ca-"));
  onCleanup(() => rmSync(certs, { recursive: true, force: true }));
  certificateAuthority(certs, "ca", "/CN=reportgen bench CA");
  serverCertificate(certs, "bucket", "IP:127.0.0.1", "ca");
  const s3 = await startS3("customer-archive", {
    cert: join(certs, "bucket.crt"),
    key: join(certs, "bucket.key"),
    ca: join(certs, "ca.crt"),
  });
  onCleanup(() => s3.stop());
  renice(s3.pid, BUCKET_NICE, new Set());
  const svc = await startService({
    args: ["--destination-allow-hosts", "127.0.0.1"],
    env: { NODE_EXTRA_CA_CERTS: join(certs, "ca.crt") },
  });
  const r = await fetch(`${svc.base}/api/v1/destinations`, {
    method: "POST",
    headers: { "x-api-key": svc.key, "content-type": "application/json" },
    // moto's own address (no proxy in this process): the bench injects no fault.
    body: JSON.stringify({
      name: "archive",
      type: "s3",
      s3: { endpoint: s3.directEndpoint, bucket: s3.bucket, prefix: "bench/", access_key_id: "k", secret_access_key: "s" },
    }),
  });
  const made = (await r.json()) as { data?: { id: string } };
  if (r.status !== 201 || !made.data) throw new Error(`creating the destination answered ${r.status}: ${JSON.stringify(made)}`);
  const db = new Database(join(svc.dataDir, "reportgen.db"), { readonly: true });
  onCleanup(() => db.close());
  return { svc, motoPid: s3.pid, db, destinationId: made.data.id };
}

/** CPU ms so far of each part: the service's processes by kind (with the children they reaped), moto_server's tree, this bench. */
function partsCpu(s: Setup): Record<Part, number> {
  const procs = processTable();
  const out = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
  const root = s.svc.proc.pid;
  for (const pid of treeOf(root, procs)) out[kindOf(pid, root)] += ticksOf(procs.get(pid)) * TICK_MS;
  for (const pid of treeOf(s.motoPid, procs)) out.bucket += ticksOf(procs.get(pid)) * TICK_MS;
  out.bench = ticksOf(procs.get(process.pid)) * TICK_MS;
  return out;
}

const deliveriesIn = (db: Database, status: string) =>
  db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM report_deliveries WHERE status = ?").get(status)!.n;

interface Measurement {
  rate: number;
  latencies: number[];
  machine: number;
  own: Record<Part, number>;
}

/** The service's browser process: its Chromium child without --type= (replaced when the service recycles Chromium). */
const browserOf = (s: Setup) =>
  treeOf(s.svc.proc.pid).find((pid) => kindOf(pid, s.svc.proc.pid) === "chromium" && !commandLine(pid).includes("--type="));

/**
 * One measurement, taken again when the service recycled its Chromium meanwhile: the old browser's
 * renderers are not reaped into the tree's counters, so the tree's CPU would drop by theirs.
 */
async function measure(side: DeliverySide, c: number, n: number, bodies: Record<DeliverySide, Submission>, s: Setup): Promise<Measurement> {
  for (;;) {
    const browser = browserOf(s);
    const m = await measureOnce(side, c, n, bodies, s);
    if (browserOf(s) === browser && PROC_KINDS.every((k) => m.own[k] >= 0)) return m;
    log(`  c=${c} ${side}: the service recycled Chromium during the measurement; taking it again`);
  }
}

async function measureOnce(
  side: DeliverySide,
  c: number,
  n: number,
  bodies: Record<DeliverySide, Submission>,
  s: Setup,
): Promise<Measurement> {
  const latencies: number[] = [];
  const delivered0 = deliveriesIn(s.db, "delivered");
  const own0 = partsCpu(s);
  const m0 = machineCpuMs();
  const t0 = now();
  await driveClients(c, n, async () => {
    latencies.push((await servicePdf(s.svc, bodies[side], false)).ms);
  });
  if (side === "deliver") {
    // The window closes when the last upload is recorded: its CPU is the measurement's.
    const until = Date.now() + 120_000;
    while (deliveriesIn(s.db, "pending") > 0) {
      const failing = s.db.query<{ e: string }, []>("SELECT last_error AS e FROM report_deliveries WHERE last_error IS NOT NULL").get();
      if (failing) throw new Error(`a delivery failed: ${failing.e}`);
      if (Date.now() > until) throw new Error("deliveries still pending 120 s after the last PDF");
      await Bun.sleep(20);
    }
  }
  const wall = now() - t0;
  const m1 = machineCpuMs();
  const own1 = partsCpu(s);
  const failed = deliveriesIn(s.db, "failed");
  if (failed > 0) throw new Error(`${failed} deliveries failed: the bench measures successful uploads only`);
  const delivered = deliveriesIn(s.db, "delivered") - delivered0;
  if (delivered !== (side === "deliver" ? n : 0)) throw new Error(`${side}: ${delivered} deliveries recorded for ${n} invoices`);
  const own = Object.fromEntries(PARTS.map((k) => [k, (own1[k] - own0[k]) / n])) as Record<Part, number>;
  return { rate: (n * 1000) / wall, latencies, machine: (m1 - m0) / n, own };
}

const serviceCpu = (own: Record<Part, number>) => PROC_KINDS.reduce((a, k) => a + own[k], 0);

/** The delivery mode's run: start, warm up, interleaved rounds, the table and the targets. Returns the exit code. */
export async function runDelivery(): Promise<number> {
  const startedAt = Date.now();
  const tpl = TEMPLATES.find((t) => t.name === "invoice-ejs") ?? TEMPLATES[0]!;
  log(
    `reportgen bench --delivery: ${ROUNDS} round(s)${quick ? " (quick)" : ""}, ${tpl.name}, c = ${concurrency.join(", ")}, ` +
      `${countFor(concurrency[0]!)} invoices per measurement; ${availableParallelism()} cores, load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
  );
  const s = await setUp();
  log(
    `up: the service at ${s.svc.base}${EXTRA_SERVE_ARGS.length ? ` (serve ${EXTRA_SERVE_ARGS.join(" ")})` : ""}; the customer's bucket: ` +
      `moto_server over https (pid ${s.motoPid}) at nice ${BUCKET_NICE}, standing in for another machine`,
  );
  const bodies: Record<DeliverySide, Submission> = {
    plain: submissionOf(tpl),
    deliver: submissionOf({
      ...tpl,
      options: { ...tpl.options, deliver: [{ destination_id: s.destinationId, path: "invoices/{yyyy}/{mm}/{report_id}.pdf" }] },
    }),
  };
  const top = Math.max(...concurrency);
  for (const side of SIDES) await measure(side, top, 4 * top, bodies, s);
  log("warm-up done: every invoice delivered");

  const cells = new Map<string, Measurement[]>();
  let turn = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    log(`-- round ${round}/${ROUNDS} (${Math.round((Date.now() - startedAt) / 1000)} s, load ${loadavg()[0]!.toFixed(2)})`);
    for (const c of concurrency) {
      const order = turn++ % 2 === 0 ? SIDES : [...SIDES].reverse();
      for (const side of order) {
        const m = await measure(side, c, countFor(c), bodies, s);
        const k = `${c}|${side}`;
        cells.set(k, [...(cells.get(k) ?? []), m]);
        log(`  c=${c} ${side}: ${fmt(m.rate, 2)}/s, service CPU ${fmt(serviceCpu(m.own))} ms/invoice (server ${fmt(m.own.server)})`);
      }
    }
  }

  const med = (ms: Measurement[], f: (m: Measurement) => number) => median(ms.map(f));
  const pad = (x: string | number, w: number) => String(x).padStart(w);
  console.log(
    `\nDelivery cost: ${tpl.name}, ${countFor(concurrency[0]!)} invoices per measurement, ${ROUNDS} interleaved round(s), medians over rounds.` +
      `\nThe customer's bucket (moto_server) runs at nice ${BUCKET_NICE} on the same machine: in real life it is another machine.` +
      "\nCPU in ms per invoice; service = the instance's process tree (server + Chromium + sandboxes + other, e.g. qpdf); bucket = moto_server.\n",
  );
  console.log(
    ` c side     invoices/s ÷plain   p50 ms  machine  service ÷plain   server chromium  sandbox    other   bucket    bench  (${ROUNDS} rounds)`,
  );
  let pass = true;
  const verdicts: string[] = [];
  for (const c of concurrency) {
    const base = cells.get(`${c}|plain`)!;
    for (const side of SIDES) {
      const ms = cells.get(`${c}|${side}`)!;
      const rate = med(ms, (m) => m.rate);
      const cpu = med(ms, (m) => serviceCpu(m.own));
      const rateRatio = rate / med(base, (m) => m.rate);
      const cpuRatio = cpu / med(base, (m) => serviceCpu(m.own));
      const part = (p: Part) => pad(fmt(med(ms, (m) => m.own[p])), 8);
      console.log(
        `${pad(c, 2)} ${side.padEnd(8)} ${pad(fmt(rate, 2), 10)} ${pad(fmt(rateRatio, 2), 6)} ${pad(
          fmt(
            percentile(
              ms.flatMap((m) => m.latencies),
              0.5,
            ),
          ),
          8,
        )} ` +
          `${pad(fmt(med(ms, (m) => m.machine)), 8)} ${pad(fmt(cpu), 8)} ${pad(fmt(cpuRatio, 3), 6)} ` +
          `${PARTS.map(part).join(" ")}`,
      );
      if (side !== "deliver") continue;
      // Each round's pair (deliver and plain, run back to back): their ratio, a steadier figure when other
      // load on the machine changes from one round to the next.
      const paired = (f: (m: Measurement) => number) => median(ms.map((m, i) => f(m) / f(base[i]!)));
      const pairedRate = paired((m) => m.rate);
      const pairedCpu = paired((m) => serviceCpu(m.own));
      const pairedServer = paired((m) => m.own.server);
      const perRound = ms.map((m, i) => fmt(m.rate / base[i]!.rate, 2)).join(" ");
      console.log(
        `   paired by round (median of deliver ÷ plain): throughput ${fmt(pairedRate, 3)} [${perRound}], ` +
          `service CPU ${fmt(pairedCpu, 3)}, server process ${fmt(pairedServer, 3)}`,
      );
      const okRate = pairedRate >= TARGET.minThroughputRatio;
      const okCpu = pairedCpu <= TARGET.maxCpuRatio;
      pass &&= okRate && okCpu;
      verdicts.push(
        `${okRate ? "PASS" : "FAIL"}  c=${c}: deliver ÷ plain throughput (paired by round) ${fmt(pairedRate, 3)} >= ${TARGET.minThroughputRatio}`,
        `${okCpu ? "PASS" : "FAIL"}  c=${c}: deliver ÷ plain service CPU per invoice (paired by round) ${fmt(pairedCpu, 3)} <= ${TARGET.maxCpuRatio}`,
      );
    }
  }
  console.log(`\n${verdicts.join("\n")}`);
  return flags.check && !pass ? 1 : 0;
}
