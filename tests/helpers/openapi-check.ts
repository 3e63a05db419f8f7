// Every answer the API tests receive through TestApp.request (tests/helpers/app.ts) is checked against the
// OpenAPI document the same app serves: the operation must list the status, and a JSON body must match
// that status's schema (Ajv, JSON Schema 2020-12, the dialect of OpenAPI 3.1). A mismatch fails the
// request, and so the test: the document cannot drift from what the server answers. Paths the document
// does not describe (the dashboard, unknown routes) are counted as unchecked.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Json = Record<string, any>;

/** How many answers were checked, and how many were outside the document. */
export const openApiCheckCount = { checked: 0, outside: 0 };

/** The document's schemas in Ajv: components.schemas become $defs of a schema named "doc". */
export function openApiAjv(doc: Json): { ajv: Ajv2020; schemaOf: (s: unknown) => Json } {
  // inlineRefs off: each named schema is compiled once, not again inside every answer that refers to it.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, inlineRefs: false });
  addFormats(ajv);
  const rewrite = (s: unknown) => JSON.parse(JSON.stringify(s).replaceAll('"#/components/schemas/', '"doc#/$defs/'));
  ajv.addSchema({ $id: "doc", $defs: rewrite(doc.components?.schemas ?? {}) });
  return { ajv, schemaOf: rewrite };
}

interface Operation {
  pattern: RegExp;
  params: number;
  methods: Json;
}

export class DocumentCheck {
  private readonly operations: Operation[];
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv: ReturnType<typeof openApiAjv>;

  constructor(readonly doc: Json) {
    this.ajv = openApiAjv(doc);
    this.operations = Object.entries<Json>(doc.paths)
      .map(([path, methods]) => ({
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
        params: (path.match(/\{/g) ?? []).length,
        methods,
      }))
      // A literal segment wins over a parameter: /reports/merge before /reports/{reportID}.
      .sort((a, b) => a.params - b.params);
    // Compiled now, once per distinct schema, not on a test's first answer.
    const byText = new Map<string, ValidateFunction>();
    for (const o of this.operations) {
      for (const op of Object.values<Json>(o.methods)) {
        for (const [status, r] of Object.entries<Json>(op.responses ?? {})) {
          const schema = r.content?.["application/json"]?.schema;
          if (!schema) continue;
          const text = JSON.stringify(schema);
          if (!byText.has(text)) byText.set(text, this.ajv.ajv.compile(this.ajv.schemaOf(schema)));
          this.validators.set(`${op.operationId} ${status}`, byText.get(text)!);
        }
      }
    }
  }

  /** Throws naming what the document does not say about this answer. */
  async check(method: string, url: string, res: Response): Promise<void> {
    const path = new URL(url).pathname;
    const op = this.operations.filter((o) => o.pattern.test(path));
    if (!op.length) {
      openApiCheckCount.outside++;
      return;
    }
    const where = `${method} ${path} → ${res.status}`;
    const operation = op.map((o) => o.methods[method.toLowerCase()]).find(Boolean);
    // A method the path does not have is Elysia's 404 route_not_found (or 405): not an operation to check.
    if (!operation) {
      openApiCheckCount.outside++;
      return;
    }
    const response = operation.responses?.[String(res.status)] ?? operation.responses?.[`${String(res.status)[0]}XX`];
    if (!response) throw new Error(`OpenAPI drift: ${where} is not a documented status of ${operation.operationId}`);
    const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const content = response.content ?? {};
    openApiCheckCount.checked++;
    if (!type || res.status === 204) return;
    const media = content[type] ?? Object.entries<Json>(content).find(([k]) => k.endsWith("/*") && type.startsWith(k.slice(0, -1)))?.[1];
    if (!media)
      throw new Error(`OpenAPI drift: ${where} answered ${type}, which ${operation.operationId} does not document for ${res.status}`);
    if (type !== "application/json" || !media.schema) return;
    const body = await res.clone().json();
    const key = `${operation.operationId} ${response === operation.responses?.[String(res.status)] ? res.status : `${String(res.status)[0]}XX`}`;
    const validate = this.validators.get(key)!;
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)}`);
      throw new Error(
        `OpenAPI drift: ${where} (${key}): the body does not match the document:\n  ${errors.join("\n  ")}\n  body: ${JSON.stringify(body).slice(0, 600)}`,
      );
    }
  }
}

const checks = new Map<string, DocumentCheck>();

/** The check of the document an app serves (one per distinct document: apps of one configuration share it). */
export async function documentCheck(fetchDocument: () => Promise<Response>): Promise<DocumentCheck | undefined> {
  const res = await fetchDocument();
  if (res.status !== 200) return undefined;
  const text = await res.text();
  let check = checks.get(text);
  if (!check) checks.set(text, (check = new DocumentCheck(JSON.parse(text))));
  return check;
}

/** The document with every `$ref` to a named schema replaced by the schema: for tests that read a shape where it is used. */
export function inlined<T>(doc: T): T {
  const schemas = (doc as Json).components?.schemas ?? {};
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== "object" || v === null) return v;
    const ref = (v as Json).$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) return walk(schemas[ref.slice(21)]);
    return Object.fromEntries(Object.entries(v).map(([k, c]) => [k, walk(c)]));
  };
  return walk(doc) as T;
}
