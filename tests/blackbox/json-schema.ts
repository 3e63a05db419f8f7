// A small JSON Schema checker for the subset an OpenAPI 3.x document uses (type lists, nullable, enum,
// const, required, properties, additionalProperties, items, anyOf/oneOf/allOf, $ref into the document,
// formats date-time and uuid, numeric and length bounds, pattern). Independent of the server's own
// validator on purpose: the black-box tier checks answers against what the document says.
type Schema = Record<string, any>;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** Problems with `value` against `schema` (empty when it conforms). */
export function check(schema: Schema, value: unknown, doc: Schema, path = "$"): string[] {
  if (schema.$ref) {
    const target = (schema.$ref as string)
      .replace(/^#\//, "")
      .split("/")
      .reduce((o: any, k: string) => o?.[k], doc);
    if (!target) return [`${path}: unresolved $ref ${schema.$ref}`];
    return check(target, value, doc, path);
  }
  const out: string[] = [];
  if (value === null && schema.nullable) return out;
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const t = typeOf(value);
    const ok = types.some((want) => want === t || (want === "number" && t === "integer"));
    if (!ok) return [`${path}: expected ${types.join("|")}, got ${t}`];
  }
  if (schema.const !== undefined && value !== schema.const)
    out.push(`${path}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  if (schema.enum && !schema.enum.includes(value))
    out.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === "string") {
    if (schema.format === "date-time" && !DATE_TIME.test(value)) out.push(`${path}: not a date-time: ${value}`);
    if (schema.format === "uuid" && !UUID.test(value)) out.push(`${path}: not a uuid: ${value}`);
    if (schema.minLength !== undefined && value.length < schema.minLength) out.push(`${path}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) out.push(`${path}: longer than ${schema.maxLength}`);
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) out.push(`${path}: does not match ${schema.pattern}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) out.push(`${path}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) out.push(`${path}: above ${schema.maximum}`);
  }
  if (typeOf(value) === "object") {
    const obj = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (!(k in obj)) out.push(`${path}: missing required ${k}`);
    const props: Record<string, Schema> = schema.properties ?? {};
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) out.push(...check(props[k], v, doc, `${path}.${k}`));
      else if (schema.additionalProperties === false) out.push(`${path}: unexpected property ${k}`);
      else if (typeof schema.additionalProperties === "object") out.push(...check(schema.additionalProperties, v, doc, `${path}.${k}`));
    }
  }
  if (Array.isArray(value) && schema.items) for (const [i, v] of value.entries()) out.push(...check(schema.items, v, doc, `${path}[${i}]`));
  if (schema.allOf) for (const s of schema.allOf) out.push(...check(s, value, doc, path));
  for (const key of ["anyOf", "oneOf"] as const) {
    if (!schema[key]) continue;
    const passing = (schema[key] as Schema[]).filter((s) => check(s, value, doc, path).length === 0).length;
    if (passing === 0 || (key === "oneOf" && passing > 1)) out.push(`${path}: matches ${passing} of the ${key} alternatives`);
  }
  return out;
}
