// data_schema: JSON Schema draft 2020-12, checked with Ajv 8 (ajv/dist/2020, allErrors). This module runs
// in the schema thread (schema-worker.ts, driven by schema-validator.ts), never on the server's event loop:
// compiling a schema and checking 150,000 strings against it cost CPU the API's other requests must not wait for.
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
// a compile error: 422), and since v7 its code generation escapes every value taken from a schema.
// `pattern` and `patternProperties` run on RE2 (schema-regexp.ts), in time linear in the data. What else
// can be slow (uniqueItems compares every pair of items; ajv-formats' regular expressions) is bounded by the
// thread's deadline.
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { referencePlace, unusablePlaces } from "./schema-places";
import { re2RegExp } from "./schema-regexp";

// strict: false — the draft allows unknown keywords (annotations such as "example" or "x-…"); Ajv's strict
// mode would refuse them. Meta-schema validation (validateSchema) still catches keywords of the wrong type.
const ajv = new Ajv2020({
  allErrors: true,
  strict: false,
  validateSchema: true,
  addUsedSchema: false,
  code: { regExp: re2RegExp },
});
addFormats(ajv);

/** Compiled validators by their schema's JSON text (a version's schema never changes), with the schema Ajv keeps. */
const compiled = new Map<string, { fn: ValidateFunction; schema: object }>();
const CACHE_MAX = 500;
/** The most problems one answer lists: failing data of 150,000 items would otherwise answer 150,000 of them. */
export const MAX_PROBLEMS = 100;

export interface Problem {
  field: string;
  problem: string;
  /** The failing place in the data as a JSON Pointer ("" for the whole document). */
  path?: string;
}

/** A check's answer: `problems` holds at most MAX_PROBLEMS of `total`. */
export type SchemaVerdict = { ok: true } | { ok: false; message: string; problems: Problem[]; total: number };

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

function problemsOf(errors: ErrorObject[], root: string): Problem[] {
  return errors.slice(0, MAX_PROBLEMS).map((e) => {
    // A missing property is reported on its parent by Ajv: name the property itself.
    const pointer =
      e.keyword === "required" ? `${e.instancePath}/${String((e.params as { missingProperty: string }).missingProperty)}` : e.instancePath;
    return { field: fieldOf(root, pointer), problem: describe(e), path: pointer };
  });
}

const summarise = (p: Problem[], total: number) =>
  p
    .slice(0, 5)
    .map((x) => `${x.field} ${x.problem}`)
    .join("; ") + (total > 5 ? `; and ${total - 5} more` : "");

function refused(message: (summary: string) => string, problems: Problem[], total = problems.length): SchemaVerdict {
  return { ok: false, message: message(summarise(problems, total)), problems: problems.slice(0, MAX_PROBLEMS), total };
}

const invalid = (field: string) => (s: string) => `${field} is not a valid JSON Schema (draft 2020-12): ${s}; see details`;

/** Compiles (once) the schema given as JSON text, or says why it cannot be used, naming the place in it. */
function compile(schemaJson: string, field: string): ValidateFunction | SchemaVerdict {
  const hit = compiled.get(schemaJson);
  if (hit) return hit.fn;
  const schema = JSON.parse(schemaJson) as unknown;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    return refused(() => `${field} must be a JSON Schema (draft 2020-12) object`, [{ field, problem: "must be an object" }]);
  // Before the meta-schema: Ajv throws on a $schema it does not know instead of answering.
  const places = unusablePlaces(schema);
  if (places.length)
    return refused(
      invalid(field),
      places.map((p) => ({ field: fieldOf(field, p.pointer), problem: p.problem })),
    );
  let valid: boolean;
  try {
    valid = ajv.validateSchema(schema) as boolean;
  } catch (e) {
    return refused(invalid(field), [{ field, problem: (e as Error).message }]);
  }
  if (!valid) return refused(invalid(field), problemsOf(ajv.errors ?? [], field), ajv.errors?.length);
  let fn: ValidateFunction;
  try {
    fn = ajv.compile(schema);
  } catch (e) {
    // An unresolvable $ref (remote ones are never fetched), a $dynamicRef Ajv loops on (RangeError), …
    const err = e as Error & { missingRef?: string };
    const ref =
      (e as { missingRef?: unknown }).missingRef !== undefined
        ? /^can't resolve reference (.*) from id /.exec(err.message)?.[1]
        : undefined;
    const at =
      ref !== undefined
        ? referencePlace(schema, ref)
        : e instanceof RangeError
          ? (referencePlace(schema, undefined, ["$dynamicRef"]) ?? referencePlace(schema, undefined))
          : undefined;
    const why = e instanceof RangeError ? "a reference that cannot be resolved (it leads back to itself)" : err.message;
    const place = at === undefined ? field : fieldOf(field, at);
    ajv.removeSchema(schema);
    return refused(() => `${field} cannot be used: ${place}: ${why}`, [{ field: place, problem: why }]);
  }
  if (compiled.size >= CACHE_MAX) {
    const [oldest, { schema: kept }] = compiled.entries().next().value!;
    compiled.delete(oldest);
    ajv.removeSchema(kept);
  }
  compiled.set(schemaJson, { fn, schema });
  return fn;
}

/** Whether the schema (JSON text) is a valid, usable draft 2020-12 schema; the problems name `field`'s places. */
export function checkSchemaJson(schemaJson: string, field: string): SchemaVerdict {
  const fn = compile(schemaJson, field);
  return typeof fn === "function" ? { ok: true } : fn;
}

/** Checks data (JSON text) against the schema (JSON text): the problems name every failing path under `root`. */
export function validateJson(schemaJson: string, dataJson: string, root: string): SchemaVerdict {
  const fn = compile(schemaJson, "data_schema");
  if (typeof fn !== "function") return fn;
  if (fn(JSON.parse(dataJson))) return { ok: true };
  const errors = fn.errors ?? [];
  return refused((s) => `${root} does not match the template's data_schema: ${s}; see details`, problemsOf(errors, root), errors.length);
}
