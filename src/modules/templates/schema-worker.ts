// Entry of the schema thread (see schema-validator.ts): compiles data_schema and checks data against it,
// one task at a time, off the server's event loop. Its compiled schemas stay here between tasks; the
// server terminates the thread when a task overruns its deadline, and the next one starts empty.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { checkSchemaJson, type SchemaVerdict, validateJson } from "./json-schema";
import type { FromSchemaThread, SchemaThreadData, ToSchemaThread } from "./schema-validator";

const port = parentPort!;

// Linux gives each thread its own nice value (setpriority on the thread's id): a thread that checks
// 150,000 strings for seconds then yields the cores to the event loop, as Chromium and the sandboxes do.
let tid: number | undefined;
try {
  tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  setPriority(tid, (workerData as SchemaThreadData).nice);
} catch {
  // Not Linux, or no /proc: the thread keeps the process's priority.
}

function run(m: Extract<ToSchemaThread, { type: "check" }>): SchemaVerdict {
  try {
    return m.data === undefined ? checkSchemaJson(m.schema, m.field) : validateJson(m.schema, m.data, m.field);
  } catch (e) {
    // A validator that throws while it runs (a recursion Ajv did not see at compile time): the schema's fault.
    const why = e instanceof RangeError ? `it refers to itself without end (the stack overflowed: ${e.message})` : (e as Error).message;
    return { ok: false, message: `data_schema cannot be used: ${why}`, problems: [{ field: "data_schema", problem: why }], total: 1 };
  }
}

port.on("message", (m: ToSchemaThread) => {
  if (m.type === "ping") return port.postMessage({ type: "pong", id: m.id } satisfies FromSchemaThread);
  port.postMessage({ type: "verdict", id: m.id, verdict: run(m) } satisfies FromSchemaThread);
});
// Its id lets the server count the deadline in this thread's CPU time (schema-validator.ts).
port.postMessage({ type: "ready", tid } satisfies FromSchemaThread);
