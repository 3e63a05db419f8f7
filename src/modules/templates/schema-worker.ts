// Entry of the schema thread (see schema-validator.ts): compiles data_schema and checks data against it,
// one task at a time, off the server's event loop. Its compiled schemas stay here between tasks; the
// server terminates the thread when a task overruns its deadline, and the next one starts empty.
import { serveTasks } from "../../lib/task-thread-worker";
import { checkSchemaJson, type SchemaVerdict, validateJson } from "./json-schema";
import type { SchemaTask } from "./schema-validator";

void serveTasks((m: SchemaTask): SchemaVerdict => {
  try {
    return m.data === undefined ? checkSchemaJson(m.schema, m.field) : validateJson(m.schema, m.data, m.field);
  } catch (e) {
    // A validator that throws while it runs (a recursion Ajv did not see at compile time): the schema's fault.
    const why = e instanceof RangeError ? `it refers to itself without end (the stack overflowed: ${e.message})` : (e as Error).message;
    return { ok: false, message: `data_schema cannot be used: ${why}`, problems: [{ field: "data_schema", problem: why }], total: 1 };
  }
});
