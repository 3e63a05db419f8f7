// Gives memory a burst of work raised back to the OS once the service has been quiet for a while.
//
// While reports come in, the server keeps what it freed for the next one (src/lib/allocator.ts: the
// allocator's purge delay, and the JavaScript heap's garbage that no collection has needed yet). Once
// the process has used almost no CPU for `quietMs` after some work, this runs one full garbage
// collection in the server and its render worker threads: the collection frees the garbage, and Bun
// asks its allocator to collect at the same time, which hands freed pages whose purge delay has passed
// back to the OS. It runs only when the resident memory grew by GROWTH_BYTES above its lowest point
// since the last trim: an idle service (health probes, scrapes) does not collect again and again, and
// a burst that raised nothing worth returning costs nothing. Each run is counted
// (reportgen_memory_trims_total) and logged with the resident memory before and after.
//
// During a burst it does not wait for the quiet: every time the resident memory has grown by
// BURST_GROWTH_BYTES since the last collection (at most once a second), the same full collection runs
// at once (reportgen_memory_burst_collections_total; --memory-trim-after 0 turns this off too). The
// JavaScript heaps otherwise let garbage grow to about twice what they held before collecting it (the
// heap of a big machine), and a burst's garbage is mostly the PDFs and the protocol messages that
// carried them. Measured on the compiled executable with `bun scripts/memory.ts` (16 clients, 240
// invoices): the server's peak 187-192 -> 144-147 MiB PSS, the tree's 602-615 -> 558-560 MiB; its CPU
// per invoice unchanged (200 invoices at c = 4, three alternating runs, medians: 6.5 -> 6.4 ms); a
// 20,000-row chunked report 3.8 -> 3.6 s, 6.6 -> 6.5 s of CPU, peak 932 -> 747 MiB. Telling
// JavaScriptCore the machine is small (BUN_JSC_forceRAMSize=128 MiB) bounded the peak as well (132 MiB)
// but cost 2.2 ms of server CPU per invoice, and capping the heap's growth (BUN_JSC_gcMaxHeapSize,
// largeHeapSize) did nothing measurable.
import type { Logger } from "./logger";

export interface MemoryTrimOptions {
  /** Quiet time (little CPU used) after which freed memory is given back; 0 turns trimming off. */
  quietMs: number;
  logger: Logger;
  /** Asks other JavaScript threads (the render workers) to collect their own heap too. */
  collectOthers?: () => void;
  /** Gives back what only a quiet period may (SQLite's page cache: during work it holds the rows in use). */
  releaseWhenQuiet?: () => void;
  /** The resident size in bytes (process.memoryUsage.rss; a test gives its own, as a test process's swings with other tests). */
  rss?: () => number;
  /** How often the CPU use is sampled (tests shorten it). */
  checkEveryMs?: number;
}

/**
 * The share of one core below which the process counts as quiet. An idle service uses ~1 % (the
 * Chromium health probe every second, timers); a single report keeps it well above 5 % for the
 * seconds it takes.
 */
const QUIET_CPU_SHARE = 0.05;
/** During work: growth of the resident memory since the last collection that is collected at once. */
export const BURST_GROWTH_BYTES = 16 * 1024 * 1024;
/** Least time between two collections during work, and how often the growth is looked at. */
const BURST_COLLECT_EVERY_MS = 1_000;
const BURST_CHECK_MS = 500;
/** Growth of the resident memory over its low-water mark that is worth a trim. */
const GROWTH_BYTES = 8 * 1024 * 1024;

export class MemoryTrim {
  /** Trims run since start. */
  count = 0;
  /** Collections run during work since start. */
  burstCollections = 0;
  private timer?: Timer;
  private burstTimer?: Timer;
  private quietSince = performance.now();
  /** The lowest resident memory seen since the last trim (0 before the first: the start counts). */
  private floor = 0;
  private lastCpu = process.cpuUsage();
  private lastAt = performance.now();
  /** The lowest resident memory since the last collection (or start()): what a burst's growth counts from. */
  private collectedRss = 0;
  private collectedAt = 0;

  private readonly rss: () => number;

  constructor(private readonly opts: MemoryTrimOptions) {
    this.rss = opts.rss ?? (() => process.memoryUsage.rss());
  }

  start(): void {
    if (this.opts.quietMs <= 0 || this.timer) return;
    const every = this.opts.checkEveryMs ?? Math.min(5_000, Math.max(250, this.opts.quietMs / 6));
    this.timer = setInterval(() => this.check(), every);
    this.timer.unref?.();
    // What the start itself raised is the first quiet period's to trim.
    this.collectedRss = this.rss();
    this.burstTimer = setInterval(() => this.checkBurst(), BURST_CHECK_MS);
    this.burstTimer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    clearInterval(this.burstTimer);
    this.timer = this.burstTimer = undefined;
  }

  private checkBurst(): void {
    const rss = this.rss();
    // Memory the allocator hands back after a collection (it may do so later) lowers the mark.
    this.collectedRss = Math.min(this.collectedRss, rss);
    if (rss < this.collectedRss + BURST_GROWTH_BYTES || performance.now() - this.collectedAt < BURST_COLLECT_EVERY_MS) return;
    this.collect();
    this.burstCollections++;
  }

  /** One full collection in the worker threads and here. */
  private collect(): void {
    this.opts.collectOthers?.();
    Bun.gc(true);
    this.collectedRss = this.rss();
    this.collectedAt = performance.now();
  }

  private check(): void {
    const now = performance.now();
    const cpu = process.cpuUsage(this.lastCpu);
    const share = (cpu.user + cpu.system) / 1000 / Math.max(1, now - this.lastAt);
    this.lastCpu = process.cpuUsage();
    this.lastAt = now;
    if (share >= QUIET_CPU_SHARE) {
      this.quietSince = now;
      return;
    }
    const rss = this.rss();
    // What the allocator hands back after a trim (it may do so a little later) lowers the mark.
    if (this.count > 0) this.floor = Math.min(this.floor, rss);
    if (now - this.quietSince >= this.opts.quietMs && rss >= this.floor + GROWTH_BYTES) this.trim();
  }

  /** One full collection here and in the worker threads; logged with the resident memory around it. */
  trim(): void {
    const before = this.rss();
    this.opts.releaseWhenQuiet?.();
    this.collect();
    this.count++;
    this.floor = this.collectedRss;
    // The CPU this collection took must not count as work: measure the next period from here.
    this.lastCpu = process.cpuUsage();
    this.lastAt = performance.now();
    const MiB = 1024 * 1024;
    this.opts.logger.info("returned freed memory after a quiet period", {
      quiet_s: Math.round(this.opts.quietMs / 1000),
      rss_before_mib: Math.round(before / MiB),
      rss_after_mib: Math.round(this.floor / MiB),
    });
  }
}
