// What becomes of a failed attempt (modules/reports/outcome.ts): one table from failure to outcome.
import { expect, test } from "bun:test";
import { RenderError } from "../../src/lib/errors";
import { StoreUnavailableError } from "../../src/modules/files/pdf-store";
import { outcomeOf } from "../../src/modules/reports/outcome";

const diskFull = Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
const dbDown = Object.assign(new Error("connection refused"), { code: "08006" });

const cases: { name: string; error: unknown; attempts?: number; running?: boolean; want: Record<string, unknown> }[] = [
  { name: "the database is unreachable: left to the lease", error: dbDown, want: { kind: "leave" } },
  {
    name: "a retryable render fault before the last attempt: back after its backoff",
    error: new RenderError("renderer_crashed", "x"),
    want: { kind: "requeue", refund: false, delayMs: 1_000, retried: "renderer_crashed" },
  },
  {
    name: "a retryable render fault on the last attempt: failed, saying it gave up",
    error: new RenderError("renderer_crashed", "x"),
    attempts: 3,
    want: { kind: "fail", code: "renderer_crashed", message: "x (gave up after 3 attempts)" },
  },
  {
    // Thrown by the sign step when it has no time-stamp authority, as by the TSA client: the code decides.
    name: "timestamp_unavailable, thrown anywhere: retried like any service fault of the moment",
    error: new RenderError("timestamp_unavailable", "no TSA"),
    want: { kind: "requeue", refund: false, delayMs: 1_000, retried: "timestamp_unavailable" },
  },
  {
    name: "a service fault that another attempt cannot mend (passwords_unavailable): failed at once",
    error: new RenderError("passwords_unavailable", "x"),
    want: { kind: "fail", code: "passwords_unavailable", message: "x" },
  },
  {
    name: "a template fault: failed at once",
    error: new RenderError("template_error", "bad"),
    want: { kind: "fail", code: "template_error" },
  },
  { name: "a bug: internal_error, not retried", error: new TypeError("oops"), want: { kind: "fail", code: "internal_error" } },
  {
    name: "no renderer: back with its attempt given back",
    error: new RenderError("renderer_unavailable", "x"),
    want: { kind: "requeue", refund: true },
  },
  {
    name: "cut short by the stop: stop() re-queues it",
    error: new RenderError("shutting_down", "x"),
    running: false,
    want: { kind: "leave" },
  },
  {
    name: "a full disk: back to the queue, the monitor told",
    error: diskFull,
    want: { kind: "requeue", refund: false, retried: "storage_full", storage: { fault: "full", cause: diskFull } },
  },
  { name: "a full disk on the last attempt: storage_full", error: diskFull, attempts: 3, want: { kind: "fail", code: "storage_full" } },
  {
    name: "a store outage: back with its attempt given back",
    error: new StoreUnavailableError("down", true),
    want: { kind: "requeue", refund: true, retried: "storage_error" },
  },
  {
    name: "an outage that abandoned an upload, on the last attempt: storage_error (the attempt is spent)",
    error: new StoreUnavailableError("down", true, { settled: false }),
    attempts: 3,
    want: { kind: "fail", code: "storage_error" },
  },
  {
    name: "the store refused this PDF: retried after its backoff",
    error: new StoreUnavailableError("refused", false),
    attempts: 2,
    want: { kind: "requeue", refund: false, delayMs: 2_000 },
  },
];

for (const c of cases)
  test(c.name, () => {
    expect(outcomeOf(c.error, { attempts: c.attempts ?? 1, maxAttempts: 3, running: c.running ?? true })).toMatchObject(c.want);
  });
