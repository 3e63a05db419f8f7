#!/usr/bin/env bun
// reportgen benchmark: the service against Chromium's honest floor, in ONE interleaved run.
//
// Usage:  bun run bench [flags]          (= bun scripts/bench.ts [flags])
//
//   --quick            2 rounds of fewer PDFs (about 4 minutes on 2 cores)
//   --rounds N         rounds (default 5; --quick: 2)
//   --concurrency LIST client concurrencies (default 1,2,4,8)
//   --templates LIST   comma list of invoice-ejs, invoice-raw, invoice-protected, invoice-pdfa, invoice-png, invoice-xrechnung, invoice-peppol,
//                      invoice-facturx, invoice-40, invoice-40-intl, einvoice-render, report-1000 (default invoice-ejs,report-1000),
//                      and einvoice-validate (the e-invoice check's latency, below),
//                      or report-100k alone: the big-report run below (its own flags: --rows LIST, default 100000;
//                      --chunk-size N, default 2500; --no-chunk sends the report whole; --ledger prints the outside
//                      benchmark's seven-column ledger instead of the report-1000 template)
//   --poll-ms N        interval of the polling client (default 50)
//   --floor-nice N     nice value of the floor's Chromium (default 10, the service's --render-nice default)
//   --binary           run the compiled dist/reportgen instead of `bun src/main.ts`
//   --service-root DIR run DIR/src/main.ts (another checkout, for A/B runs) instead of this one
//   --serve-args="..." extra flags for `serve`, e.g. --serve-args="--render-pages 4"
//   --count N          PDFs per measurement (default: the template's, 64 invoices or 16 reports; --quick 24/8),
//                      at least 2 per client
//   --cluster          the cluster mode instead (below): 2 instances on PostgreSQL + S3 against 1 on SQLite
//   --delivery         the delivery mode instead (below): invoices with and without options.deliver to a bucket
//   --json FILE        also write every figure as JSON, with the command, the commit and the load; written to
//                      docs/benchmark-results.json, it is the results file the docs show (bun scripts/gen-docs.ts)
//   --check            exit 1 when a target fails (otherwise exit 0: it is a measurement)
//   --verbose          print every measurement as it is taken
//
// Every measurement: c clients print N PDFs of one template between them, each client starting its next
// PDF when its last one is done; throughput = N / wall time; latency = one PDF, start to last byte.
// Machine CPU per PDF is read from /proc/stat over the same window (all CPUs: user + nice + system +
// irq + softirq + steal) and divided by N; "own" CPU per PDF counts only the processes of the side
// measured (its Chromium or the service's process tree, plus this bench process, with the children they
// reaped, such as Chromium's PrintCompositor process of each print), which other programs on the machine
// do not disturb.
//
// Sides, at each concurrency c:
//   floor/shared  playwright-core on ONE warm Chromium (the service's default binary, Debian's
//                 chromium-headless-shell, or $REPORTGEN_CHROMIUM_PATH; the service's launch flags, fontconfig
//                 file and user agent), c reused
//                 pages in ONE browser context: page.setContent(html, load) + page.pdf with the
//                 service's default print options. The HTML is the service's final HTML (with its print
//                 defaults stylesheet), rendered here with the `ejs` package before the clock starts (the
//                 sandbox runs that same library).
//   floor/ctx     the same with one browser context per page.
//   floor         whichever of the two prints faster (median over rounds): the honest floor.
//   floor/desktop floor/shared on desktop Chromium (/usr/lib/chromium/chromium, or $BENCH_DESKTOP_CHROMIUM),
//                 for comparison: it starts a PrintCompositor process for every print.
//   tuned         every trick the service uses, on c pages of one context: the document is loaded with
//                 CDP Page.setDocumentContent + the page's load event, script execution is off, the
//                 page's screen is 10x10 (nothing is rastered for display), the document has no
//                 screen layout (withPrintDefaults(html, true)), and the PDF comes back inline in the
//                 answer to Page.printToPDF (printToPdf). The real limit of this Chromium.
//   wait          the service end to end over HTTP, each client looping POST /api/v1/generate-pdf-async
//                 -> GET /api/v1/reports/{id}/download?wait=30 (the documented long poll) -> GET the
//                 signed link, reading every byte.
//   poll          the same, but the client polls GET .../download every --poll-ms ms.
// The floors run on one Chromium of their own, reniced like the service's (--render-nice), so other load
// on the machine slows both sides alike. Rounds interleave every side for every template and c, in an
// order that rotates from round to round; figures are medians over rounds (latency: pooled samples).
//
// The service runs as a child process on default settings except --port and --data-dir (its request
// rate limits are off by default); its log goes to a file in its temporary data dir.
//
// Peak PSS (/proc/PID/smaps_rollup, read whenever a tree's resident size, sampled every 250 ms over the
// whole run, passes its highest so far) is reported for the service's process tree and for each floor
// Chromium's (the headless-shell floor holds 3 x max c pages: shared, per-context and tuned; the desktop
// floor max c).
//
// Targets (PASS/FAIL lines): wait/floor >= 0.90 at every c; poll/floor >= 0.85 at c >= 4; the service's
// machine CPU per PDF <= 1.10 x the floor's (wait client); wait p50 at c=1 <= floor p50 + 10 ms; a variant of the
// invoice (invoice-protected, -pdfa, -facturx, -signed...) <= its limit x the plain invoice's CPU per PDF (machine,
// and the service tree's: server, sandboxes, Chromium). Then issue 48's goals (scripts/bench-targets.ts), each
// PASS/FAIL, or "not measured by this run" for a figure this run cannot give (memory and start: scripts/memory.ts).
//
// einvoice-validate (scripts/bench-einvoice.ts): not a template. In each round, before the templates, the
// test suite's largest invoice (the shared corpus) is checked by POST /api/v1/e-invoices/validate 50 times
// (--quick: 20) one after another; p50 and p99 over the pooled latencies, and the service tree's CPU per
// check. einvoice-render: an incoming XRechnung printed readable (POST /api/v1/e-invoices/render), held
// against invoice-ejs's CPU. Issue 43's goals (bench-targets.ts): the check's p50 <= 100 ms, the readable
// print's service tree CPU <= 1.25 x the plain invoice's.
//
// report-100k (scripts/bench-big.ts): no floors. One service on its defaults prints the 1000-row report
// 7 times (--quick: 3) one after another, then the bench template 100 times longer (--rows) as a chunked
// report (options.chunk of --chunk-size rows, its title on the first chunk and its total after the last).
// Each: wall time, the service tree's own CPU and its peak PSS as ratios to (rows / 1000) x the 1000-row
// report's median, pages and PDF size. Targets: time <= 1.2 x linear, peak PSS <= 1.5 GiB.
//
// Cluster mode (--cluster; scripts/bench-cluster.ts): no floors. Two sides, interleaved the same way:
//   single        ONE instance on its defaults (SQLite and its data dir), the wait client above.
//   cluster       TWO instances, each with its own data dir, on one throwaway PostgreSQL 15 (Debian's
//                 binaries, initdb'd as the `postgres` user on a temp dir and a free port) through
//                 --database-url and one moto_server bucket through --storage-url and AWS_*; the same
//                 wait client, but each request (POST, long poll, the PDF's link) goes to the next
//                 instance in turn, like a round-robin load balancer's.
// Each line: throughput (and ÷single), p50/p95, machine CPU per PDF; the own CPU per PDF of each part in
// its own column: the instances' process trees (server, Chromium, sandboxes, qpdf; the cluster's two
// together) and their ratio to the single instance's (inst÷1), PostgreSQL (pg), moto_server (s3), this
// bench; then, on the cluster's line, what the coordination moved per PDF: PostgreSQL statements and
// round trips (stmts, trips; BEGIN/COMMIT are round trips, not statements) from pg_stat_statements
// (the bench's PostgreSQL loads it; reset before each cluster measurement, read after:
// scripts/lib/pg-statements.ts), and the bucket's requests and object bytes sent and read (s3 req,
// up KB, down KB) from each instance's /metrics (reportgen_bucket_*_total), read before and after. The
// counters are read outside the CPU window. Then the CPU-bound ceiling of the throughput ratio (own CPU
// per PDF, single over cluster, with and without moto_server's) and the instances' CPU per PDF split by
// process (server, Chromium, sandbox, other), single -> cluster; at the end, how many reports each
// instance rendered. Targets (invoice-ejs at c = 4): the instances' CPU per PDF <= 1.05 x the single
// instance's, and <= 8 PostgreSQL statements per PDF; throughput is shown, not targeted. --json adds
// every round's figures and the statements by text. Needs PostgreSQL's binaries (scripts/setup) and
// moto_server (pip install 'moto[server]==5.2.1'), as the cluster tests do.
//
// Delivery mode (--delivery; scripts/bench-delivery.ts): no floors. ONE instance, two sides interleaved:
// plain (the long-poll client) and deliver (the same invoice with options.deliver to an S3 destination on
// a second moto_server, run at nice 19 because the customer's bucket is another machine in real life; a
// measurement ends when its last delivery is recorded). Throughput, and the service tree's CPU per invoice
// by process, with their ratios to plain; targets: >= 0.95 x the throughput and <= 1.05 x the CPU.
// c = 4 and 250 invoices per measurement unless --concurrency or --count say otherwise.

import { availableParallelism, loadavg } from "node:os";
import ejs from "ejs";
import { commandLine, treeOf } from "../src/lib/process-tree";
import { withPrintDefaults } from "../src/render/print-page";
import { runBig } from "./bench-big";
import { runCluster } from "./bench-cluster";
import { floorBrowser, startPssSampler, treePss } from "./bench-cpu-pss";
import { runDelivery } from "./bench-delivery";
import { largestSuiteInvoice, measureValidate } from "./bench-einvoice";
import { cell, fmt, log, report } from "./bench-report";
import {
  BIG,
  CHROMIUM,
  CONCURRENCY,
  countFor,
  EINVOICE_VALIDATE,
  EXTRA_SERVE_ARGS,
  flags,
  LAUNCH_ARGS,
  POLL_MS,
  quick,
  ROOT,
  ROUNDS,
  SERVICE_ROOT,
  SIDES,
  TEMPLATES,
  TOP_C,
} from "./bench-settings";
import { cleanup, measure, startFloors, startService } from "./bench-sides";
import { withSigningIdentity } from "./bench-signing";
import { submissionOf } from "./bench-templates";

// The run: the service and the floors started, the warm-up, the fairness check, then the interleaved rounds
// (the method above); scripts/bench-report.ts prints the figures.
async function main(): Promise<number> {
  const startedAt = Date.now();
  const loadAtStart = loadavg();
  log(
    `reportgen bench: ${ROUNDS} round(s)${quick ? " (quick)" : ""}, templates ${TEMPLATES.map((t) => t.name).join(", ")}, c = ${CONCURRENCY.join(", ")}, ` +
      `polling client every ${POLL_MS} ms; ${availableParallelism()} cores, load ${loadAtStart.map((x) => x.toFixed(2)).join(" ")}`,
  );
  const svc = await startService();
  log(
    `service up at ${svc.base} (pid ${svc.proc.pid}${flags.binary ? ", compiled binary" : SERVICE_ROOT !== ROOT ? `, from ${SERVICE_ROOT}` : ""}${EXTRA_SERVE_ARGS.length ? `, serve ${EXTRA_SERVE_ARGS.join(" ")}` : ""})`,
  );
  const floors = await startFloors(TOP_C, svc.proc.pid);
  const idlePss = { service: treePss(svc.proc.pid), floor: treePss(floorBrowser(CHROMIUM)) };
  const stopSampler = startPssSampler(svc.proc.pid);

  const tpls = (await withSigningIdentity(TEMPLATES, svc)).map((t) => {
    const rendered = t.engine === "ejs" ? ejs.render(t.html_template, t.floorData ?? t.data!, {}) : t.html_template;
    return {
      name: t.name,
      // The document the service prints: the rendered template with the print defaults stylesheet.
      html: withPrintDefaults(rendered),
      // What the service's script-less page receives: the same, kept off the screen.
      tunedHtml: withPrintDefaults(rendered, true),
      body: submissionOf(t),
      t,
    };
  });

  // Warm-up: fonts, caches and JIT on every side and page (one PDF per client); the service's pages too.
  const pagesOf = new Map<string, number>();
  for (const tpl of tpls) {
    for (const side of SIDES) {
      const m = await measure(side, TOP_C, TOP_C, tpl, svc, floors);
      const want = pagesOf.get(tpl.name);
      if (want !== undefined && want !== m.pages)
        throw new Error(`${tpl.name}: ${side} printed ${m.pages} pages, another side ${want}: not the same document`);
      pagesOf.set(tpl.name, m.pages);
    }
    log(`warm-up ${tpl.name}: ${pagesOf.get(tpl.name)} page(s) on every side`);
  }
  // Fairness check: the floor's flags must be the service's.
  const serviceChromium = treeOf(svc.proc.pid)
    .map(commandLine)
    .find((cmd) => /chrom/i.test(cmd) && !cmd.includes("--type="));
  const missing = serviceChromium ? LAUNCH_ARGS.filter((a) => !serviceChromium.includes(a)) : ["(no Chromium found in the service's tree)"];
  if (missing.length)
    log(`WARNING: the service's Chromium runs without ${missing.join(" ")}: the floor's flags no longer match src/render/browser.ts`);

  // The e-invoice check (einvoice-validate): warmed up like the templates, then measured once per round.
  const checked = EINVOICE_VALIDATE ? largestSuiteInvoice() : undefined;
  const validate = checked && { file: checked.file, bytes: checked.bytes.byteLength, latencies: [] as number[], treeCpuMs: [] as number[] };
  if (checked) await measureValidate(svc, checked, 5);

  let turn = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    log(`-- round ${round}/${ROUNDS} (${Math.round((Date.now() - startedAt) / 1000)} s, load ${loadavg()[0]!.toFixed(2)})`);
    if (checked && validate) {
      const m = await measureValidate(svc, checked, quick ? 20 : 50);
      validate.latencies.push(...m.latencies);
      validate.treeCpuMs.push(m.treeCpuMs);
    }
    for (const tpl of tpls) {
      for (const c of CONCURRENCY) {
        // Rotate the order so that no side always runs first, or right after the same other side.
        const order = SIDES.map((_, i) => SIDES[(i + turn) % SIDES.length]!);
        if (turn % 2 === 1) order.reverse();
        turn++;
        const line: string[] = [];
        for (const side of order) {
          const m = await measure(side, c, countFor(tpl.t, c), tpl, svc, floors);
          if (m.pages !== pagesOf.get(tpl.name))
            throw new Error(`${tpl.name}: ${side} printed ${m.pages} pages, expected ${pagesOf.get(tpl.name)}`);
          const x = cell(tpl.name, c, side);
          x.rates.push(m.pdfsPerSec);
          x.latencies.push(...m.latencies);
          x.machine.push(m.machineMsPerPdf);
          x.own.push(m.own);
          line.push(`${side} ${fmt(m.pdfsPerSec, 2)}/s`);
        }
        if (flags.verbose) log(`  ${tpl.name} c=${c}: ${line.join(" | ")}`);
      }
    }
  }

  return report(tpls, startedAt, loadAtStart, idlePss, stopSampler, validate);
}

let code = 1;
try {
  code = await (flags.cluster ? runCluster() : flags.delivery ? runDelivery() : BIG ? runBig() : main());
} catch (e) {
  console.error(`bench: ${(e as Error).stack ?? e}`);
} finally {
  await cleanup();
}
process.exit(code);
