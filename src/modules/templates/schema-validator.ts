// The server's side of data_schema checks: one worker thread (schema-worker.ts) compiles schemas and
// checks data against them, so that no schema and no data can hold the event loop (a backtracking pattern
// once stalled /livez for 4.8 s; uniqueItems compares every pair of 200,000 items). The thread runs under
// the supervisor (start timeout, backoff, restart counts as kind "validator"). Each task has a deadline,
// enforced from here: past it, the task is a 422 naming data_schema and the thread is terminated and
// replaced (its compiled schemas go with it). One thread, one task at a time: checks take at most one core
// whatever clients send, and what waits is a bounded queue (503 server_busy beyond it).
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { retryLater, validationFailed } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import { entrypointUrl } from "../../lib/runtime";
import { type Child, ChildRegistry, Supervisor } from "../../lib/supervisor";
import { ThreadLink } from "../../lib/thread-link";
import type { SchemaVerdict } from "./json-schema";

/**
 * A schema's largest size as JSON. Real schemas of large documents are tens of kilobytes; compiling one is
 * CPU in the thread, within the deadline.
 */
export const SCHEMA_MAX_BYTES = 256 * 1024;
/** Tasks waiting for the thread; beyond, 503 server_busy. At the deadline each, a full queue is ~30 s of work. */
const QUEUE_MAX = 16;
/** Loading Ajv and its formats takes ~100 ms; this allows for a saturated machine. */
const START_TIMEOUT_MS = 10_000;

export interface SchemaThreadData {
  nice: number;
}
export type ToSchemaThread = { type: "check"; id: number; schema: string; data?: string; field: string } | { type: "ping"; id: number };
export type FromSchemaThread =
  | { type: "ready"; tid?: number }
  | { type: "verdict"; id: number; verdict: SchemaVerdict }
  | { type: "pong"; id: number };

/**
 * How far past the deadline a task may wait for a CPU it did not get. The deadline counts the thread's own
 * CPU time: on a saturated machine the niced thread can wait seconds for a core, and that is the
 * service's load, not the schema's fault (a 422 would blame the client). Past this many deadlines of wall
 * time it answers 503 server_busy instead.
 */
const STARVED_DEADLINES = 10;

/** CPU milliseconds a thread of this process has used (/proc/self/task/TID/stat); undefined off Linux. */
function threadCpuMs(tid: number | undefined): number | undefined {
  if (tid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "latin1");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 (utime, stime) in clock ticks; the slice starts at field 3.
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = 100;

/** What the templates service needs: both reject with a 422 validation_failed naming the place. */
export interface SchemaChecker {
  /** Checks that `schema` is a usable draft 2020-12 schema (size, meta-schema, $schema, references, patterns). */
  checkSchema(schema: unknown, field?: string): Promise<void>;
  /** Checks data (JSON text) against a schema (JSON text); the details name every failing path under `root`. */
  checkData(schemaJson: string, dataJson: string, root?: string): Promise<void>;
}

export interface SchemaValidatorOptions {
  /** --schema-timeout: the deadline of one task in the thread. */
  timeoutMs: number;
  /** --render-nice: the thread's CPU priority, below the event loop's. */
  nice: number;
  logger: Logger;
}

interface Task {
  msg: Omit<Extract<ToSchemaThread, { type: "check" }>, "id" | "type">;
  /** Says what overran the deadline, e.g. "checking data against data_schema". */
  what: string;
  resolve: (v: SchemaVerdict) => void;
  reject: (e: Error) => void;
}

/** One generation of the thread. */
class SchemaThread implements Child {
  private readonly worker: Worker;
  private readonly link: ThreadLink;
  task?: Task;
  private taskId = 0;
  private timer?: Timer;
  /** The thread's id (its "ready" says it), to read its CPU time. */
  private tid?: number;

  constructor(
    private readonly owner: SchemaValidator,
    died: (cause: string) => void,
  ) {
    // scripts/build.ts lists modules/templates/schema-worker.ts as an entrypoint of the executable.
    this.worker = new Worker(entrypointUrl("modules/templates/schema-worker.ts"), {
      workerData: { nice: owner.opts.nice } satisfies SchemaThreadData,
    });
    this.link = new ThreadLink(this.worker, died);
    this.worker.on("message", (m: FromSchemaThread) => {
      this.link.heard(m);
      if (m.type === "ready") this.tid = m.tid;
      if (m.type === "verdict" && m.id === this.taskId) this.settle((t) => t.resolve(m.verdict));
    });
  }

  start(): Promise<void> {
    return this.link.started();
  }

  run(task: Task): void {
    this.task = task;
    const id = ++this.taskId;
    const limit = this.owner.opts.timeoutMs;
    const cpu0 = threadCpuMs(this.tid);
    const wall0 = performance.now();
    // At the deadline: overrun if the thread spent it on CPU; else it waited for a core, and gets the rest.
    const check = () => {
      const used = cpu0 === undefined ? undefined : threadCpuMs(this.tid)! - cpu0;
      if (used === undefined || used >= limit * 0.9) return this.owner.overran(this);
      if (performance.now() - wall0 > limit * STARVED_DEADLINES) return this.owner.starved(this);
      this.timer = setTimeout(check, Math.max(50, limit - used));
    };
    this.timer = setTimeout(check, limit);
    this.worker.postMessage({ type: "check", ...task.msg, id } satisfies ToSchemaThread);
  }

  /** Takes the task in flight (if any) off the thread, without starting the next one. */
  take(): Task | undefined {
    const t = this.task;
    clearTimeout(this.timer);
    this.task = undefined;
    return t;
  }

  /** Ends the task in flight, if any, with `how`; then the next one can start. */
  settle(how: (t: Task) => void): void {
    const t = this.take();
    if (t) how(t);
    this.owner.dispatch();
  }

  probe(): Promise<boolean> {
    return this.link.probe();
  }

  async kill(): Promise<void> {
    clearTimeout(this.timer);
    await this.link.kill();
  }
}

export class SchemaValidator implements SchemaChecker {
  private sup?: Supervisor<SchemaThread>;
  private registry?: ChildRegistry;
  private readonly waiting: Task[] = [];
  private stopped = false;

  constructor(readonly opts: SchemaValidatorOptions) {}

  /**
   * Makes checks possible; the thread itself starts with the first one (it holds ~5 MB of PSS, which a
   * service whose templates have no data_schema never pays). `registry` keeps its restart counts (the
   * App's). A check before start() (a one-shot command's App) starts it with a private registry.
   */
  start(registry = new ChildRegistry()): void {
    this.registry ??= registry;
  }

  /** The thread's supervisor, created and started by the first check. */
  private launch(): Supervisor<SchemaThread> {
    this.sup ??= new Supervisor<SchemaThread>({
      kind: "validator",
      name: "schema-validator",
      create: (died) => new SchemaThread(this, died),
      startTimeoutMs: START_TIMEOUT_MS,
      // A busy thread answers no ping until its task ends, which the deadline bounds.
      probe: { intervalMs: 10_000, timeoutMs: this.opts.timeoutMs + 5_000, failures: 2 },
      logger: this.opts.logger,
      registry: (this.registry ??= new ChildRegistry()),
      onReady: () => this.dispatch(),
      // A thread that failed by itself (not a deadline: that task is settled already) fails its task.
      onDown: (t) => t.settle((task) => task.reject(retryLater("server_busy", "the data_schema validator stopped unexpectedly", 1))),
    });
    void this.sup.start();
    return this.sup;
  }

  /** Fails what waits and ends the thread. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.waiting.splice(0)) t.reject(retryLater("server_busy", "the service is shutting down", 5));
    await this.sup?.stop();
  }

  async checkSchema(schema: unknown, field = "data_schema"): Promise<void> {
    const json = JSON.stringify(schema) ?? "null";
    const bytes = Buffer.byteLength(json);
    if (bytes > SCHEMA_MAX_BYTES)
      throw validationFailed(
        `${field} is ${bytes} bytes as JSON; a schema may have ${SCHEMA_MAX_BYTES}: use $defs and $ref to repeat less`,
        [{ field, problem: `over ${SCHEMA_MAX_BYTES} bytes` }],
      );
    refuseUnless(await this.run({ schema: json, field }, `compiling ${field}`));
  }

  async checkData(schemaJson: string, dataJson: string, root = "data"): Promise<void> {
    refuseUnless(await this.run({ schema: schemaJson, data: dataJson, field: root }, `checking ${root} against data_schema`));
  }

  private run(msg: Task["msg"], what: string): Promise<SchemaVerdict> {
    return new Promise((resolve, reject) => {
      if (this.stopped) return reject(retryLater("server_busy", "the service is shutting down", 5));
      if (this.waiting.length >= QUEUE_MAX)
        return reject(retryLater("server_busy", `${QUEUE_MAX} data_schema checks waiting, its limit`, 1));
      this.waiting.push({ msg, what, resolve, reject });
      this.launch();
      this.dispatch();
    });
  }

  /** Hands the next waiting task to the thread when it is ready and idle. */
  dispatch(): void {
    const t = this.sup?.child;
    if (t && !t.task && this.waiting.length) t.run(this.waiting.shift()!);
  }

  /** The task in flight waited far past its deadline without getting the CPU it needed: the service's load. */
  starved(thread: SchemaThread): void {
    const t = thread.take();
    this.sup?.fail(thread, "a data_schema task waited for a core far past its deadline", { planned: true });
    t?.reject(retryLater("server_busy", `the server is too busy to check ${t.what} now: retry after Retry-After seconds`, 5));
  }

  /** The task in flight passed its deadline: it is a 422, and the thread (stuck in it) is replaced at once. */
  overran(thread: SchemaThread): void {
    const s = this.opts.timeoutMs / 1000;
    // Off the thread first: no next task may be handed to it before it is taken down.
    const t = thread.take();
    this.sup?.fail(thread, "a data_schema task overran its deadline", { planned: true });
    t?.reject(
      validationFailed(
        `${t.what} took longer than ${s} s, the limit: simplify data_schema (uniqueItems over large arrays of objects, format on long strings) or send less data`,
        [{ field: "data_schema", problem: `${t.what} took longer than ${s} s` }],
      ),
    );
  }
}

function refuseUnless(v: SchemaVerdict): void {
  if (!v.ok) throw validationFailed(v.message, v.problems);
}
