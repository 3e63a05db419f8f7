// data_schema: JSON Schema draft 2020-12, checked with Ajv 8 (ajv/dist/2020, allErrors).
//
// Why Ajv: it is the most used and most actively maintained JSON Schema validator for JavaScript, it
// implements draft 2020-12 completely (unevaluatedProperties, $dynamicRef, prefixItems), it checks a
// schema against the draft's meta-schema and refuses one it cannot compile (an unresolvable $ref, an
// invalid pattern) with a message, and with allErrors it reports every failing path, not only the first.
// It compiles a schema to a JavaScript function, which works inside `bun build --compile` (checked by the
// black-box tier, tests/blackbox/templates.test.ts). ajv-formats adds the draft's formats (date, email, uri,
// …) so that "format" is checked rather than ignored.
//
// Schemas come from API clients: Ajv never fetches a remote $ref (no loadSchema is configured, so one is
// a compile error: 422), and since v7 its code generation escapes every value taken from a schema. Regular
// expressions in `pattern` run in the server's realm with the `u` flag; data is bounded by the data limits.
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { validationFailed } from "../../lib/errors";

// strict: false — the draft allows unknown keywords (annotations such as "example" or "x-…"); Ajv's strict
// mode would refuse them. Meta-schema validation (validateSchema) still catches keywords of the wrong type.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: true, addUsedSchema: false });
addFormats(ajv);

/** Compiled validators by their schema's JSON text: a version's schema never changes. */
const compiled = new Map<string, ValidateFunction>();
const CACHE_MAX = 500;

export interface Problem {
  field: string;
  problem: string;
  /** The failing place in the data as a JSON Pointer ("" for the whole document). */
  path?: string;
}

/** A JSON Pointer as the API names fields: /items/0/price → data.items[0].price. */
export function fieldOf(root: string, pointer: string): string {
  let out = root;
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return out;
}

const describe = (e: ErrorObject) => (e.keyword === "required" ? "is required" : (e.message ?? e.keyword));

function problemsOf(errors: ErrorObject[] | null | undefined, root: string): Problem[] {
  return (errors ?? []).map((e) => {
    // A missing property is reported on its parent by Ajv: name the property itself.
    const pointer =
      e.keyword === "required" ? `${e.instancePath}/${String((e.params as { missingProperty: string }).missingProperty)}` : e.instancePath;
    return { field: fieldOf(root, pointer), problem: describe(e), path: pointer };
  });
}

/** Compiles (once) a schema already known to be valid, or throws 422 naming `field`. */
function compile(schema: unknown, field: string): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) return hit;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw validationFailed(`${field} must be a JSON Schema (draft 2020-12) object`, [{ field, problem: "must be an object" }]);
  if (!ajv.validateSchema(schema)) {
    const problems = problemsOf(ajv.errors, field);
    throw validationFailed(`${field} is not a valid JSON Schema (draft 2020-12): ${summarise(problems)}; see details`, problems);
  }
  let fn: ValidateFunction;
  try {
    fn = ajv.compile(schema);
  } catch (e) {
    // An unresolvable $ref (remote ones are never fetched), an invalid regular expression, …
    const why = (e as Error).message;
    throw validationFailed(`${field} cannot be used: ${why}`, [{ field, problem: why }]);
  }
  if (compiled.size >= CACHE_MAX) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, fn);
  return fn;
}

const summarise = (p: Problem[]) =>
  p
    .slice(0, 5)
    .map((x) => `${x.field} ${x.problem}`)
    .join("; ") + (p.length > 5 ? `; and ${p.length - 5} more` : "");

/**
 * A schema's largest size as JSON. Compiling runs on the server's event loop, so it is bounded far below
 * the data limit: real schemas of large documents are tens of kilobytes.
 */
export const SCHEMA_MAX_BYTES = 256 * 1024;

/** Checks that a schema is a valid, usable draft 2020-12 schema; 422 validation_failed otherwise. */
export function checkSchema(schema: unknown, field = "data_schema"): void {
  const bytes = Buffer.byteLength(JSON.stringify(schema) ?? "");
  if (bytes > SCHEMA_MAX_BYTES)
    throw validationFailed(`${field} is ${bytes} bytes as JSON; a schema may have ${SCHEMA_MAX_BYTES}: use $defs and $ref to repeat less`, [
      { field, problem: `over ${SCHEMA_MAX_BYTES} bytes` },
    ]);
  compile(schema, field);
}

/** Checks data against a (valid) schema: 422 validation_failed whose details name every failing path. */
export function checkAgainstSchema(schema: unknown, data: unknown, root = "data"): void {
  const fn = compile(schema, "data_schema");
  if (fn(data)) return;
  const problems = problemsOf(fn.errors, root);
  throw validationFailed(`${root} does not match the template's data_schema: ${summarise(problems)}; see details`, problems);
}
