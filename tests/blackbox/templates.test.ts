// Stored templates on the compiled executable, defaults only: a template with a JSON Schema (Ajv runs
// inside the executable, in its validator thread), the preflight's sample render through its Chromium,
// generation by id, data refused by the schema before anything is queued, and patterns on RE2.
import { expect, test } from "bun:test";
import { api, useServer } from "./helpers";

const run = useServer();

const SCHEMA = {
  type: "object",
  required: ["customer", "total"],
  properties: { customer: { type: "string" }, total: { type: "number", minimum: 0 }, due: { type: "string", format: "date" } },
};

test("create a template with a schema, render it by id, and have bad data refused with every failing path", async () => {
  const { server, key } = run;
  const created = await api(server, key, "POST", "/templates", {
    name: "Invoice",
    engine: "ejs",
    html_template: "<h1>Invoice for <%= customer %></h1><p>Total <%= total.toFixed(2) %> \uE000</p>",
    data_schema: SCHEMA,
    sample_data: { customer: "Ada", total: 12 },
  });
  expect(created.status).toBe(201);
  const c = (await created.json()) as { template_id: string; version: number; warnings: { code: string; pages?: number }[] };
  expect(c.version).toBe(1);
  expect(c.warnings.find((w) => w.code === "sample_render")?.pages).toBe(1);
  expect(c.warnings.map((w) => w.code)).toContain("missing_glyphs");

  const bad = await api(server, key, "POST", "/templates", { name: "Bad", engine: "ejs", html_template: "x", data_schema: { type: 5 } });
  expect(bad.status).toBe(422);

  const refused = await api(server, key, "POST", "/generate-pdf-async", {
    template_id: c.template_id,
    data: { total: -1, due: "tomorrow" },
  });
  expect(refused.status).toBe(422);
  const r = (await refused.json()) as { error: string; details: { field: string }[] };
  expect(r.error).toBe("validation_failed");
  expect(r.details.map((d) => d.field).sort()).toEqual(["data.customer", "data.due", "data.total"]);

  const sub = await api(server, key, "POST", "/generate-pdf-async", { template_id: c.template_id, data: { customer: "Grace", total: 42 } });
  expect(sub.status).toBe(202);
  const { report_id } = (await sub.json()) as { report_id: string };
  const report = (await (await api(server, key, "GET", `/reports/${report_id}?wait=30`)).json()) as { data: Record<string, unknown> };
  expect(report.data).toMatchObject({ status: "succeeded", template_id: c.template_id, template_version: 1 });
  const link = (await (await api(server, key, "GET", `/reports/${report_id}/download`)).json()) as { data: string };
  const pdf = new Uint8Array(await (await fetch(link.data)).arrayBuffer());
  const file = `${run.dataDir}/by-id.pdf`;
  await Bun.write(file, pdf);
  const text = Bun.spawnSync(["pdftotext", file, "-"]).stdout.toString();
  expect(text).toContain("Invoice for Grace");
  expect(text).toContain("Total 42.00");
}, 120_000);

test("the executable's schema thread: RE2 patterns decide at once, a backreference is refused at save naming its place", async () => {
  const { server, key } = run;
  const backref = await api(server, key, "POST", "/templates", {
    name: "Backref",
    engine: "ejs",
    html_template: "x",
    data_schema: { type: "object", properties: { a: { type: "string", pattern: "^(a)\\1$" } } },
  });
  expect(backref.status).toBe(422);
  expect(((await backref.json()) as { details: { field: string }[] }).details.map((d) => d.field)).toEqual([
    "data_schema.properties.a.pattern",
  ]);
  const unknown = await api(server, key, "POST", "/templates", {
    name: "Meta",
    engine: "ejs",
    html_template: "x",
    data_schema: { $schema: "http://127.0.0.1:1/meta.json" },
  });
  expect(unknown.status).toBe(422);
  expect(((await unknown.json()) as { details: { field: string }[] }).details.map((d) => d.field)).toEqual(["data_schema.$schema"]);

  const evil = await api(server, key, "POST", "/templates", {
    name: "Evil",
    engine: "ejs",
    html_template: "<%= rows.length %>",
    data_schema: { type: "object", properties: { rows: { type: "array", items: { type: "string", pattern: "^(a+)+$" } } } },
  });
  expect(evil.status).toBe(201);
  const id = ((await evil.json()) as { template_id: string }).template_id;
  const started = performance.now();
  const refused = await api(server, key, "POST", "/generate-pdf-async", {
    template_id: id,
    data: { rows: ["aaaa", `${"a".repeat(40)}!`] },
  });
  expect(performance.now() - started).toBeLessThan(2_000);
  expect(refused.status).toBe(422);
  expect(((await refused.json()) as { details: { field: string }[] }).details.map((d) => d.field)).toEqual(["data.rows[1]"]);
}, 60_000);
