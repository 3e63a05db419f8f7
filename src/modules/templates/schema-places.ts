// The places in a data_schema that Ajv cannot name itself: a `$schema` of another draft (Ajv throws
// "no schema with key or ref"), a pattern RE2 cannot run (Ajv throws from its regExp engine), and the
// `$ref` / `$dynamicRef` an unresolvable reference came from. Only schema positions are walked (not
// const, enum, default, examples or unknown keywords, whose values are data).
import { compileRe2 } from "./schema-regexp";

/** The one draft data_schema may declare, with and without the empty fragment. */
export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** Keywords whose value is one subschema, an array of them, or an object of them. */
const ONE = [
  "additionalProperties",
  "propertyNames",
  "items",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
];
const MANY = ["allOf", "anyOf", "oneOf", "prefixItems"];
const BY_NAME = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** A problem at a place in the schema, as a JSON Pointer into it. */
export interface SchemaPlace {
  pointer: string;
  problem: string;
}

const esc = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** Calls `visit` with every subschema and its JSON Pointer, without recursion (a schema may be deep). */
function walk(schema: unknown, visit: (s: Record<string, unknown>, pointer: string) => void): void {
  const stack: [unknown, string][] = [[schema, ""]];
  while (stack.length) {
    const [s, at] = stack.pop()!;
    if (typeof s !== "object" || s === null || Array.isArray(s)) continue;
    const o = s as Record<string, unknown>;
    visit(o, at);
    for (const k of ONE) if (k in o) stack.push([o[k], `${at}/${esc(k)}`]);
    for (const k of MANY) {
      const xs = o[k];
      if (Array.isArray(xs)) for (let i = 0; i < xs.length; i++) stack.push([xs[i], `${at}/${k}/${i}`]);
    }
    for (const k of BY_NAME) {
      const m = o[k];
      if (typeof m === "object" && m !== null && !Array.isArray(m))
        for (const [name, x] of Object.entries(m)) stack.push([x, `${at}/${esc(k)}/${esc(name)}`]);
    }
  }
}

/**
 * `$schema` values other than draft 2020-12, patterns (pattern, patternProperties) RE2 cannot run, and a
 * `$dynamicRef` that names no `$dynamicAnchor`: Ajv would silently check such a one against the whole
 * schema instead (or recurse until the stack overflows), where the draft resolves it as a `$ref`.
 */
export function unusablePlaces(schema: unknown): SchemaPlace[] {
  const out: SchemaPlace[] = [];
  const anchors = new Set<string>();
  const dynamicRefs: [string, string][] = [];
  walk(schema, (o, at) => {
    if (typeof o.$dynamicAnchor === "string") anchors.add(o.$dynamicAnchor);
    if (typeof o.$dynamicRef === "string") dynamicRefs.push([o.$dynamicRef, `${at}/$dynamicRef`]);
    const declared = o.$schema;
    if (declared !== undefined && declared !== DRAFT_2020_12 && declared !== `${DRAFT_2020_12}#`)
      out.push({
        pointer: `${at}/$schema`,
        problem: `only JSON Schema draft 2020-12 is supported: use "${DRAFT_2020_12}" or leave $schema out (got ${JSON.stringify(declared).slice(0, 200)})`,
      });
    const patterns: [string, string][] = [];
    if (typeof o.pattern === "string") patterns.push([o.pattern, `${at}/pattern`]);
    const pp = o.patternProperties;
    if (typeof pp === "object" && pp !== null && !Array.isArray(pp))
      for (const p of Object.keys(pp)) patterns.push([p, `${at}/patternProperties/${esc(p)}`]);
    for (const [p, pointer] of patterns) {
      try {
        compileRe2(p);
      } catch (e) {
        out.push({ pointer, problem: (e as Error).message });
      }
    }
  });
  for (const [ref, pointer] of dynamicRefs) {
    // "#" alone is the schema's root, as with $ref.
    if (ref === "#" || (ref.startsWith("#") && anchors.has(ref.slice(1)))) continue;
    out.push({
      pointer,
      problem: `cannot be resolved: name a $dynamicAnchor of this schema ("#name"; there is ${anchors.size ? [...anchors].map((a) => `"#${a}"`).join(", ") : "none"}), or use $ref`,
    });
  }
  return out;
}

/** The first place where one of `keywords` has the value `ref` (any value when undefined), or undefined. */
export function referencePlace(schema: unknown, ref: string | undefined, keywords = ["$ref", "$dynamicRef"]): string | undefined {
  let found: string | undefined;
  walk(schema, (o, at) => {
    if (found !== undefined) return;
    for (const k of keywords)
      if (typeof o[k] === "string" && (ref === undefined || o[k] === ref)) {
        found = `${at}/${k}`;
        return;
      }
  });
  return found;
}
