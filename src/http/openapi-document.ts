// The OpenAPI document as @elysiajs/openapi builds it from the routes' schemas, finished in this one
// place for what TypeBox and Elysia cannot say themselves. Everything else is declared with the routes:
// operationIds in each route's `detail`, names and headers by the annotations of http/openapi-names.ts.
import { API_ERRORS, type ApiErrorCode } from "../lib/error-codes";
import { RESPONSE_HEADERS, SCHEMA_NAME, SCHEMA_REF } from "./openapi-names";

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON of any shape, walked key by key
type Json = Record<string, any>;

/** Keys whose value is a map of schemas, a list of schemas, or one schema (JSON Schema 2020-12). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SCHEMA_ONE = new Set([
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
]);

/**
 * Keys that are not JSON Schema: TypeBox's `error` (the message Elysia shows when the value fails; the
 * error mapper reads it), `nullable` (OpenAPI 3.0's, which Elysia's t.Nullable adds beside the 3.1 form),
 * and Elysia's `default: 0` of a numeric query string. The document is OpenAPI 3.1: JSON Schema only.
 */
const PRIVATE_KEYS = ["error", "nullable"];

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Elysia's t.Numeric and t.Integer accept a number or a numeric string (a query string, a form field):
 * `anyOf: [{type: "string", format: "numeric"|"integer"}, {type: "number"|"integer", ...}]`. The document
 * describes the value: the number, with the bounds and the description of the declaration.
 */
function numericValue(s: Json): Json | undefined {
  const [a, b] = Array.isArray(s.anyOf) && s.anyOf.length === 2 ? s.anyOf : [];
  if (!isObject(a) || !isObject(b) || a.type !== "string" || (a.format !== "numeric" && a.format !== "integer")) return undefined;
  const { anyOf: _, ...outer } = s;
  return { ...outer, ...b, type: a.format === "integer" ? "integer" : b.type };
}

/** A nullable value in OpenAPI 3.1's form: `type: [T, "null"]` (an enum lists null too), or anyOf [ref, null]. */
function nullable(s: Json): Json {
  if (Array.isArray(s.anyOf)) {
    const rest = s.anyOf.filter((x: Json) => !(isObject(x) && x.type === "null" && Object.keys(x).length === 1));
    if (rest.length === 1 && rest.length < s.anyOf.length && typeof rest[0].type === "string" && !rest[0].$ref) {
      const { anyOf: _, ...outer } = s;
      s = { ...outer, ...rest[0], type: [rest[0].type, "null"] };
    }
  }
  // Elysia's union of literals inside t.Nullable comes out as `type: ["string", "null"], enum: [...]`
  // without null in the enum, which then refuses the null the answers send (report.pdfa).
  if (Array.isArray(s.type) && s.type.includes("null") && Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
  return s;
}

class Finisher {
  readonly schemas: Json = {};

  /** One schema, its children first; a named one goes to components.schemas and becomes a reference. */
  schema(input: unknown): Json {
    if (!isObject(input)) return input as Json;
    let s: Json = { ...input };
    for (const k of PRIVATE_KEYS) delete s[k];
    for (const [k, v] of Object.entries(s)) {
      if (SCHEMA_MAPS.has(k) && isObject(v)) s[k] = Object.fromEntries(Object.entries(v).map(([n, c]) => [n, this.schema(c)]));
      else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) s[k] = v.map((c) => this.schema(c));
      else if (SCHEMA_ONE.has(k) && isObject(v)) s[k] = this.schema(v);
    }
    s = nullable(numericValue(s) ?? s);
    const ref = s[SCHEMA_REF] as string | undefined;
    if (ref) return this.refTo(ref, s.type);
    const name = s[SCHEMA_NAME] as string | undefined;
    if (!name) return s;
    delete s[SCHEMA_NAME];
    const isNullable = Array.isArray(s.type) && s.type.includes("null");
    if (isNullable) {
      s.type = s.type.filter((x: string) => x !== "null");
      if (s.type.length === 1) s.type = s.type[0];
    }
    const known = this.schemas[name];
    if (known && JSON.stringify(known) !== JSON.stringify(s)) {
      throw new Error(`OpenAPI: two different schemas are named ${name}; name each shape once (http/openapi-names.ts)`);
    }
    this.schemas[name] = s;
    return this.refTo(name, isNullable ? ["null"] : undefined);
  }

  private refTo(name: string, type: unknown) {
    const ref = { $ref: `#/components/schemas/${name}` };
    return Array.isArray(type) && type.includes("null") ? { anyOf: [ref, { type: "null" }] } : ref;
  }
}

/** Error answers: each status with the codes that answer it, the body the named Error schema. */
function errorDescription(status: string): string | undefined {
  const codes = (Object.keys(API_ERRORS) as ApiErrorCode[]).filter((c) => String(API_ERRORS[c].status) === status);
  return codes.length
    ? `An error: ${codes.map((c) => `\`${c}\``).join(", ")} (the Errors table of the description says what to change)`
    : undefined;
}

const HEADERS: Json = {
  "X-Request-Id": {
    description: "The request's id (the client's own if it sent a valid one): it names the request in the service's log",
    schema: { type: "string" },
  },
  "Retry-After": { description: "Seconds to wait before retrying the same request", schema: { type: "integer", minimum: 0 } },
  "Idempotent-Replayed": {
    description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
};
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

function finishOperation(op: Json, f: Finisher): void {
  for (const p of op.parameters ?? []) p.schema = f.schema(p.schema);
  for (const c of Object.values<Json>(op.requestBody?.content ?? {})) c.schema = f.schema(c.schema);
  const idempotent = (op.parameters ?? []).some((p: Json) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
  for (const [status, r] of Object.entries<Json>(op.responses ?? {})) {
    const headers: Json = { "X-Request-Id": header("X-Request-Id") };
    for (const [type, c] of Object.entries<Json>(r.content ?? {})) {
      const own = c.schema?.[RESPONSE_HEADERS] as Record<string, string> | undefined;
      for (const [name, description] of Object.entries(own ?? {})) {
        headers[name] = HEADERS[name] ? header(name) : { description, schema: { type: "string" } };
      }
      const { [RESPONSE_HEADERS]: _, ...schema } = c.schema ?? {};
      r.content[type] = { ...c, schema: f.schema(schema) };
    }
    if (status === "429" || status === "503" || status === "507") headers["Retry-After"] = header("Retry-After");
    if (idempotent && /^2/.test(status)) headers["Idempotent-Replayed"] = header("Idempotent-Replayed");
    r.headers = { ...headers, ...r.headers };
    const codes = Number(status) >= 400 ? errorDescription(status) : undefined;
    if (codes && (!r.description || /^Response for status|^An error/.test(r.description))) r.description = codes;
  }
}

/**
 * The document @elysiajs/openapi built, finished: see the comments above. `declared` are named schemas the
 * modules declare without a route showing them whole (the e-invoice model), in the plugin's JSON form.
 */
export function finishDocument(doc: Json, declared: readonly Json[] = []): Json {
  const f = new Finisher();
  for (const [name, s] of Object.entries<Json>(doc.components?.schemas ?? {})) f.schemas[name] = f.schema(s);
  for (const s of declared) f.schema(s);
  const eachOperation = (items: Json) => {
    for (const item of Object.values<Json>(items ?? {}))
      for (const op of Object.values<Json>(item)) if (isObject(op)) finishOperation(op, f);
  };
  eachOperation(doc.paths);
  eachOperation(doc.webhooks);
  const done = { ...doc, components: { ...doc.components, schemas: f.schemas, headers: HEADERS } };
  for (const [, name] of JSON.stringify(done).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
    if (!f.schemas[name!]) throw new Error(`OpenAPI: a schema refers to ${name}, which no module declares (docs.schemas)`);
  }
  return done;
}
