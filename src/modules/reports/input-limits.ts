// Checks on a generation request that a schema cannot express: the shape and size of `data`.
import { AppError, validationFailed } from "../../lib/errors";
import { type ChunkRequest, chunkCount, chunkData, chunkProblems, valueAt } from "../../pdf/chunk-options";
import type { StoredPdfOptions } from "../../pdf/options";

export interface DataLimits {
  maxBytes: number;
  maxDepth: number;
  maxKeys: number;
}

/**
 * Validates `data` for engine ejs and returns it as JSON text. It is walked without recursion,
 * so a hostile, deeply nested document cannot overflow the stack.
 */
export function checkData(data: unknown, limits: DataLimits): string {
  if (data === undefined || data === null) {
    throw validationFailed(
      'data is required with engine "ejs": send a JSON object whose keys are the names used in the template, e.g. {"name": "Ada"}',
      [{ field: "data", problem: "required for engine ejs" }],
    );
  }
  if (typeof data !== "object" || Array.isArray(data)) {
    throw validationFailed("data must be a JSON object (not an array or a scalar): its keys become the template's variables", [
      { field: "data", problem: "must be an object" },
    ]);
  }
  let keys = 0;
  const stack: [unknown, number][] = [[data, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limits.maxDepth)
      throw validationFailed(`data is nested deeper than ${limits.maxDepth} levels; flatten it`, [
        { field: "data", problem: `depth over ${limits.maxDepth}` },
      ]);
    const children = Array.isArray(v) ? v : Object.values(v);
    keys += children.length;
    if (keys > limits.maxKeys)
      throw validationFailed(`data has more than ${limits.maxKeys} keys and array items in all; send less data`, [
        { field: "data", problem: `over ${limits.maxKeys} keys` },
      ]);
    for (const c of children) if (typeof c === "object" && c !== null) stack.push([c, depth + 1]);
  }
  const json = JSON.stringify(data);
  const bytes = Buffer.byteLength(json);
  if (bytes > limits.maxBytes)
    throw validationFailed(`data is ${bytes} bytes as JSON; the limit is ${limits.maxBytes}`, [
      { field: "data", problem: `over ${limits.maxBytes} bytes` },
    ]);
  return json;
}

/**
 * Validates the data of a chunked report (options.chunk, its array already checked by chunkProblems):
 * the limits hold for what each chunk's template run gets (the data with one slice of the array), not
 * for the whole, whose size the request body limit and --chunk-max-rows bound. Returns the whole as JSON.
 */
export function checkChunkedData(data: Record<string, unknown>, chunk: ChunkRequest, limits: DataLimits): string {
  const rows = valueAt(data, chunk.array) as unknown[];
  const count = chunkCount(rows.length, chunk.size);
  for (let i = 0; i < count; i++) {
    const first = i * chunk.size;
    try {
      checkData(chunkData(data, chunk.array, rows.slice(first, first + chunk.size), { index: i, count, first_row: first }), limits);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      throw validationFailed(
        `with options.chunk, each chunk's data must keep to the limits: chunk ${i + 1} of ${count}: ${e.message}; use a smaller options.chunk.size`,
        e.details,
      );
    }
  }
  return JSON.stringify(data);
}

/**
 * The data of a chunked report as JSON, once options.chunk and the data it slices are checked: 422
 * naming each problem (the array, the options that would come out wrong when joined, a chunk past the limits).
 */
export function chunkedDataJson(engine: string, data: unknown, o: StoredPdfOptions, limits: DataLimits & { maxRows: number }): string {
  const chunk = o.chunk!;
  if (engine === "ejs" && (data === undefined || data === null || typeof data !== "object" || Array.isArray(data))) checkData(data, limits);
  const problems = chunkProblems(chunk, { engine, data, ...o }, limits.maxRows);
  if ((o as { e_invoice?: unknown }).e_invoice !== undefined)
    problems.push({ field: "options.e_invoice", problem: "an e-invoice is one document of its own: not with options.chunk" });
  if (o.tagged)
    problems.push({
      field: "options.tagged",
      problem: "the parts' structure trees are not joined: not with options.chunk (options.outline works)",
    });
  if (problems.length)
    throw validationFailed(`options.chunk cannot be used as sent (${problems.map((p) => p.field).join(", ")}); see details`, problems);
  return checkChunkedData(data as Record<string, unknown>, chunk, limits);
}
