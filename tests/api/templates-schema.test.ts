// data_schema through the API: every unusable schema is a 422 that names its place (never a 500), patterns
// run on RE2 (no backreferences or lookaround, refused at save), patterns, patternProperties and formats
// still decide, failing data lists at most 100 problems, and a check past --schema-timeout is a 422 after
// which the replaced validator thread goes on working. tests/process/schema-event-loop.test.ts holds the
// event loop to its promise under a flood of such checks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function post(path: string, body: Record<string, unknown>) {
  const r = await t.request("POST", `/api/v1${path}`, { body });
  return { status: r.status, body: (await r.json()) as any };
}
const save = (data_schema: unknown, extra: Record<string, unknown> = {}) =>
  post("/templates", { name: "s", engine: "ejs", html_template: "<p><%= 1 %>", data_schema, ...extra });

describe("an unusable data_schema is 422 naming its place", () => {
  test.each([
    ["an unknown $schema", { $schema: "http://127.0.0.1:9/meta.json" }, "data_schema.$schema", "2020-12"],
    ["a draft-07 $schema", { $schema: "http://json-schema.org/draft-07/schema#" }, "data_schema.$schema", "only JSON Schema draft 2020-12"],
    [
      "a draft-07 $schema in $defs",
      { $defs: { x: { $schema: "http://json-schema.org/draft-07/schema#" } } },
      "data_schema.$defs.x.$schema",
      "2020-12",
    ],
    ["an unresolvable $ref", { properties: { a: { $ref: "#/$defs/nope" } } }, "data_schema.properties.a.$ref", "#/$defs/nope"],
    ["a remote $ref", { items: { $ref: "https://example.com/s.json" } }, "data_schema.items.$ref", "example.com"],
    ["a $dynamicRef to nowhere", { properties: { a: { $dynamicRef: "#nowhere" } } }, "data_schema.properties.a.$dynamicRef", "resolved"],
    ["a $dynamicRef by JSON Pointer", { $dynamicRef: "#/$defs/x", $defs: { x: {} } }, "data_schema.$dynamicRef", "use $ref"],
    ["a bad $id", { $id: "#frag" }, "data_schema.$id", "must match pattern"],
    [
      "a backreference in pattern",
      { properties: { a: { type: "string", pattern: "^(a)\\1$" } } },
      "data_schema.properties.a.pattern",
      "backreferences and lookaround are not supported",
    ],
    ["a lookahead in patternProperties", { patternProperties: { "^(?=x)": {} } }, 'data_schema.patternProperties["^(?=x)"]', "RE2"],
    ["a lookbehind in pattern", { allOf: [{ pattern: "(?<=a)b" }] }, "data_schema.allOf[0].pattern", "RE2"],
  ])("%s", async (_name, schema, field, says) => {
    const r = await save(schema);
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("validation_failed");
    expect(r.body.details.map((d: any) => d.field)).toContain(field);
    expect(JSON.stringify(r.body)).toContain(says);
  });
});

describe("patterns, patternProperties and formats still decide", () => {
  const schema = {
    type: "object",
    properties: {
      code: { type: "string", pattern: "^[A-Z]{3}-\\d+$" },
      name: { type: "string", pattern: "^\\p{L}+$" },
      year: { type: "string", pattern: "^(?<y>\\d{4})$" },
      email: { type: "string", format: "email" },
      day: { type: "string", format: "date" },
    },
    patternProperties: { "^x-": { type: "number" } },
  };
  let id: string;
  beforeAll(async () => {
    const r = await save(schema, { sample_data: { code: "ABC-1", name: "Zoë" } });
    expect(r.status).toBe(201);
    id = r.body.template_id;
  });
  const generate = (data: unknown) => post("/generate-pdf-async", { template_id: id, data });

  test("matching data is accepted", async () => {
    const r = await generate({ code: "INV-2024", name: "Ünïcödé", year: "2024", email: "a@example.com", day: "2024-02-29", "x-n": 3 });
    expect(r.status).toBe(202);
  });

  test.each([
    ["a pattern", { code: "inv-1" }, "data.code", 'must match pattern "^[A-Z]{3}-\\d+$"'],
    ["a Unicode class", { name: "Zoë1" }, "data.name", 'must match pattern "^\\p{L}+$"'],
    ["a named group", { year: "24" }, "data.year", 'must match pattern "^(?<y>\\d{4})$"'],
    ["patternProperties", { "x-n": "three" }, 'data["x-n"]', "must be number"],
    ["an email format", { email: "not an email" }, "data.email", 'must match format "email"'],
    ["a date format", { day: "2023-02-29" }, "data.day", 'must match format "date"'],
  ])("%s refuses what does not match", async (_name, data, field, problem) => {
    const r = await generate(data);
    expect(r.status).toBe(422);
    expect(r.body.details).toContainEqual(expect.objectContaining({ field, problem }));
  });

  test("sample_data is checked with the same engine at save", async () => {
    const r = await save(schema, { sample_data: { code: "abc" } });
    expect(r.status).toBe(422);
    expect(r.body.details.map((d: any) => d.field)).toEqual(["sample_data.code"]);
  });
});

test("a $dynamicRef to a $dynamicAnchor of the schema is saved and checks recursive data", async () => {
  const tree = { $dynamicAnchor: "node", type: "object", properties: { kids: { type: "array", items: { $dynamicRef: "#node" } } } };
  const r = await save(tree, { sample_data: { kids: [{ kids: [] }] } });
  expect(r.status).toBe(201);
  const g = await post("/generate-pdf-async", { template_id: r.body.template_id, data: { kids: [{ kids: [1] }] } });
  expect(g.status).toBe(422);
  expect(g.body.details).toContainEqual(expect.objectContaining({ field: "data.kids[0].kids[0]", problem: "must be object" }));
});

test("a schema that refers to itself forever is 422: at save when Ajv sees it, else at generation", async () => {
  const atSave = await save({ $ref: "#" });
  expect(atSave.status).toBe(422);
  expect(atSave.body.details).toEqual([{ field: "data_schema.$ref", problem: expect.stringContaining("can't resolve reference #") }]);
  const r = await save({ $dynamicRef: "#" });
  expect(r.status).toBe(201);
  const g = await post("/generate-pdf-async", { template_id: r.body.template_id, data: {} });
  expect(g.status).toBe(422);
  expect(g.body.details).toEqual([{ field: "data_schema", problem: expect.stringContaining("stack") }]);
});

test("a backtracking pattern over many strings answers at once, with at most 100 problems", async () => {
  const r = await save({ type: "object", properties: { rows: { type: "array", items: { type: "string", pattern: "^(a+)+$" } } } });
  const started = performance.now();
  const g = await post("/generate-pdf-async", {
    template_id: r.body.template_id,
    data: { rows: Array.from({ length: 5_000 }, () => `${"a".repeat(40)}!`) },
  });
  expect(performance.now() - started).toBeLessThan(2_000);
  expect(g.status).toBe(422);
  expect(g.body.details.length).toBe(100);
  expect(g.body.details[0]).toMatchObject({ field: "data.rows[0]", path: "/rows/0" });
  expect(g.body.message).toContain("and 4995 more");
});

test("a check past --schema-timeout is 422 naming data_schema; the replaced thread checks the next one", async () => {
  const s = await createTestApp({ config: { schemaTimeout: 300 } });
  try {
    const make = async (data_schema: unknown) =>
      (
        (await (
          await s.request("POST", "/api/v1/templates", { body: { name: "u", engine: "ejs", html_template: "<p>", data_schema } })
        ).json()) as any
      ).template_id as string;
    const unique = await make({ type: "object", properties: { rows: { type: "array", uniqueItems: true } } });
    const plain = await make({ type: "object", required: ["n"] });
    const slow = await s.request("POST", "/api/v1/generate-pdf-async", {
      body: { template_id: unique, data: { rows: Array.from({ length: 60_000 }, (_, i) => ({ i })) } },
    });
    const body = (await slow.json()) as any;
    expect(slow.status).toBe(422);
    expect(body.error).toBe("validation_failed");
    expect(body.message).toContain("took longer than 0.3 s");
    expect(body.details).toEqual([{ field: "data_schema", problem: "checking data against data_schema took longer than 0.3 s" }]);
    const next = await s.request("POST", "/api/v1/generate-pdf-async", { body: { template_id: plain, data: {} } });
    expect(next.status).toBe(422);
    expect(((await next.json()) as any).details).toEqual([{ field: "data.n", problem: "is required", path: "/n" }]);
    expect(s.app.children.stats().validator).toMatchObject({ children: 1, recycles: 1, restarts: 0 });
  } finally {
    await s.close();
  }
});
