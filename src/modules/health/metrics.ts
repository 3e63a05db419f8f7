// The service's metrics: what the processor and the HTTP layer record, and what is read at scrape
// time (reports by status, queue depth, disk, child-process restarts). Served at GET /metrics.

import { BURST_GROWTH_BYTES } from "../../lib/memory-trim";
import { Registry } from "../../lib/metrics";
import type { StorageMonitor } from "../../lib/storage";
import type { BucketTraffic, TrafficKind } from "../files/traffic";

export interface MetricSources {
  version: string;
  reportsByStatus: () => Record<string, number>;
  queued: () => number;
  rendering: () => number;
  rendererReady: () => boolean;
  storage: StorageMonitor;
  /** The PDF store: not writable during a bucket outage; a bucket's traffic (PDFs and asset blobs). */
  files?: { writable: boolean; traffic?: BucketTraffic };
  /** Restart counts of supervised child processes, by kind (chromium, sandbox, …), since start. */
  restarts: () => Record<string, number>;
  /** Planned replacements by kind (a Chromium recycled after --recycle-after renders, a sandbox a template broke). */
  recycles: () => Record<string, number>;
  /** Quiet-period memory trims since start (lib/memory-trim.ts). */
  memoryTrims?: () => number;
  /** Collections during work since start, each after the memory grew by BURST_GROWTH_BYTES (lib/memory-trim.ts). */
  memoryBurstCollections?: () => number;
  /** Last-used writes of access keys that failed since start, by cause (modules/keys/authenticator.ts). */
  keyTouchFailures: () => Record<string, number>;
  /** The connection gate's counts (absent with --max-connections 0). */
  connections?: () => { open: number; refused: number };
}

/** Seconds; templating is usually milliseconds, printing tens to hundreds of them. */
const TEMPLATE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const RENDER_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30];

export class ServiceMetrics {
  readonly registry = new Registry();
  private sources?: MetricSources;
  private readonly startedAt = Date.now() / 1000;

  readonly httpRequests = this.registry.counter(
    "reportgen_http_requests_total",
    "HTTP requests answered, by method, route pattern and status",
  );
  readonly httpSeconds = this.registry.histogram(
    "reportgen_http_request_duration_seconds",
    "Time to answer an HTTP request (long polls included)",
    HTTP_BUCKETS,
  );
  readonly authFailures = this.registry.counter(
    "reportgen_auth_failures_total",
    "Requests refused for a missing or invalid X-API-Key (401)",
  );
  readonly templateSeconds = this.registry.histogram(
    "reportgen_template_duration_seconds",
    "Time to render one EJS template, from hand-off to the sandbox pool (a wait for a free sandbox included)",
    TEMPLATE_BUCKETS,
  );
  readonly renderSeconds = this.registry.histogram(
    "reportgen_render_duration_seconds",
    "Time for Chromium to load, print and store one report, from hand-off to the render pool (a wait for a free page included)",
    RENDER_BUCKETS,
  );
  readonly reportsSucceeded = this.registry.counter("reportgen_reports_succeeded_total", "Reports rendered and stored since start");
  readonly reportsFailed = this.registry.counter(
    "reportgen_reports_failed_total",
    "Reports that ended failed since start, by failure code",
  );
  readonly reportsRetried = this.registry.counter(
    "reportgen_reports_retried_total",
    "Renders interrupted and put back in the queue, by cause",
  );

  constructor() {
    const r = this.registry;
    const src = () => this.sources!;
    r.gauge("reportgen_build_info", "Version of the running executable", () => [{ labels: { version: src().version }, value: 1 }]);
    r.gauge("reportgen_reports", "Reports stored, by status", () =>
      Object.entries(src().reportsByStatus()).map(([status, value]) => ({ labels: { status }, value })),
    );
    r.gauge("reportgen_queue_depth", "Reports waiting to be rendered", () => src().queued());
    r.gauge("reportgen_reports_rendering", "Reports being rendered now", () => src().rendering());
    r.gauge("reportgen_renderer_ready", "1 when a renderer can print", () => (src().rendererReady() ? 1 : 0));
    r.counterFrom("reportgen_process_restarts_total", "Restarts of child processes since start, by kind", () =>
      Object.entries(src().restarts()).map(([kind, value]) => ({ labels: { kind }, value })),
    );
    r.counterFrom("reportgen_process_recycles_total", "Planned replacements of child processes since start, by kind", () =>
      Object.entries(src().recycles()).map(([kind, value]) => ({ labels: { kind }, value })),
    );
    r.gauge("reportgen_storage_free_bytes", "Free space in the data dir's filesystem", () => src().storage.status().freeBytes);
    r.gauge("reportgen_storage_ok", "1 when the data dir accepts new reports (room above the reserve, no write failure)", () =>
      src().storage.accepting ? 1 : 0,
    );
    r.gauge("reportgen_file_store_ok", "1 when the PDF store (data dir or bucket) takes new PDFs; 0 during a bucket outage", () =>
      (src().files?.writable ?? true) ? 1 : 0,
    );
    // The bucket's traffic, by kind (pdf, asset); no series without a bucket.
    const traffic = (pick: (t: BucketTraffic) => Record<TrafficKind, number>) => () => {
      const t = src().files?.traffic;
      return t ? Object.entries(pick(t)).map(([kind, value]) => ({ labels: { kind }, value })) : [];
    };
    r.counterFrom(
      "reportgen_bucket_sent_bytes_total",
      "Bytes of objects written to the bucket since start, by kind (pdf, asset)",
      traffic((t) => t.sentBytes),
    );
    r.counterFrom(
      "reportgen_bucket_received_bytes_total",
      "Bytes of objects read from the bucket since start, by kind (pdf, asset)",
      traffic((t) => t.receivedBytes),
    );
    r.counterFrom(
      "reportgen_bucket_requests_total",
      "Requests sent to the bucket since start (uploads, reads, lookups, deletions, listings, probes; a multipart upload counts once), by kind (pdf, asset)",
      traffic((t) => t.requests),
    );
    r.gauge(
      "reportgen_connections_open",
      "Client connections open now (0 without the connection gate)",
      () => src().connections?.().open ?? 0,
    );
    r.counterFrom(
      "reportgen_connections_refused_total",
      "Connections refused at --max-connections since start (answered 503 server_busy)",
      () => src().connections?.().refused ?? 0,
    );
    r.counterFrom(
      "reportgen_key_last_used_failures_total",
      "Writes of an access key's last-used time that failed since start (the requests were served), by cause: full, read_only, io (the data dir's disk) or other",
      () => Object.entries(src().keyTouchFailures()).map(([cause, value]) => ({ labels: { cause }, value })),
    );
    r.counterFrom(
      "reportgen_memory_trims_total",
      "Times the server gave freed memory back after --memory-trim-after without work",
      () => src().memoryTrims?.() ?? 0,
    );
    r.counterFrom(
      "reportgen_memory_burst_collections_total",
      `Times the server collected its garbage during work, its memory having grown by ${BURST_GROWTH_BYTES / 1024 ** 2} MiB since the last collection`,
      () => src().memoryBurstCollections?.() ?? 0,
    );
    r.gauge("process_resident_memory_bytes", "Resident memory of the server process (children not included)", () =>
      process.memoryUsage.rss(),
    );
    r.gauge("process_start_time_seconds", "Start time of the process, Unix seconds", () => this.startedAt);
  }

  /** Connects the scrape-time gauges to the running app. */
  bind(sources: MetricSources): void {
    this.sources = sources;
  }

  render(): string {
    return this.registry.render();
  }
}
