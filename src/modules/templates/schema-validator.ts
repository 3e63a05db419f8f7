// The server's side of data_schema checks: one worker thread (schema-worker.ts) compiles schemas and
// checks data against them, so that no schema and no data can hold the event loop (a backtracking pattern
// once stalled /livez for 4.8 s; uniqueItems compares every pair of 200,000 items). The thread is a
// TaskThread (lib/task-thread.ts: supervised as kind "validator", started by the first check, ~5 MB of PSS
// a service whose templates have no data_schema never pays). Each task has a deadline: past it, the task
// is a 422 naming data_schema and the thread is replaced (its compiled schemas go with it). One thread,
// one task at a time: checks take at most one core whatever clients send, and what waits is a bounded
// queue (503 server_busy beyond it).
import { type AppError, retryLater, validationFailed } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import { entrypointUrl } from "../../lib/runtime";
import type { ChildRegistry } from "../../lib/supervisor";
import { TaskThread } from "../../lib/task-thread";
import type { SchemaVerdict } from "./json-schema";

/**
 * A schema's largest size as JSON. Real schemas of large documents are tens of kilobytes; compiling one is
 * CPU in the thread, within the deadline.
 */
export const SCHEMA_MAX_BYTES = 256 * 1024;

/** One task of the thread: compile `schema`, and check `data` against it when given. */
export interface SchemaTask {
  schema: string;
  data?: string;
  field: string;
}

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

export class SchemaValidator implements SchemaChecker {
  private readonly thread: TaskThread<SchemaTask, SchemaVerdict>;

  constructor(opts: SchemaValidatorOptions) {
    this.thread = new TaskThread({
      kind: "validator",
      name: "schema-validator",
      // scripts/build.ts lists modules/templates/schema-worker.ts as an entrypoint of the executable.
      entry: entrypointUrl("modules/templates/schema-worker.ts"),
      timeoutMs: opts.timeoutMs,
      nice: opts.nice,
      // Loading Ajv and its formats takes ~100 ms; this allows for a saturated machine.
      startTimeoutMs: 10_000,
      // At the deadline each, a full queue is ~30 s of work.
      queueMax: 16,
      logger: opts.logger,
      errors: {
        overran: (what, s) =>
          validationFailed(
            `${what} took longer than ${s} s, the limit: simplify data_schema (uniqueItems over large arrays of objects, format on long strings) or send less data`,
            [{ field: "data_schema", problem: `${what} took longer than ${s} s` }],
          ),
        busy: (reason, retryAfterS) => retryLater("server_busy", reason, retryAfterS),
        failed: (message): AppError => retryLater("server_busy", `the data_schema validator failed: ${message}`, 1),
      },
    });
  }

  /** Counts the thread's restarts in `registry` (the App's); the thread itself starts with the first check. */
  start(registry?: ChildRegistry): void {
    if (registry) this.thread.start(registry);
  }

  /** Fails what waits and ends the thread. */
  stop(): Promise<void> {
    return this.thread.stop();
  }

  async checkSchema(schema: unknown, field = "data_schema"): Promise<void> {
    const json = JSON.stringify(schema) ?? "null";
    const bytes = Buffer.byteLength(json);
    if (bytes > SCHEMA_MAX_BYTES)
      throw validationFailed(
        `${field} is ${bytes} bytes as JSON; a schema may have ${SCHEMA_MAX_BYTES}: use $defs and $ref to repeat less`,
        [{ field, problem: `over ${SCHEMA_MAX_BYTES} bytes` }],
      );
    refuseUnless(await this.thread.run({ schema: json, field }, `compiling ${field}`));
  }

  async checkData(schemaJson: string, dataJson: string, root = "data"): Promise<void> {
    refuseUnless(await this.thread.run({ schema: schemaJson, data: dataJson, field: root }, `checking ${root} against data_schema`));
  }
}

function refuseUnless(v: SchemaVerdict): void {
  if (!v.ok) throw validationFailed(v.message, v.problems);
}
