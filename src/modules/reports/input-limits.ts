// Checks on a generation request that a schema cannot express: the shape and size of `data`.
import { validationFailed } from "../../lib/errors";

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
