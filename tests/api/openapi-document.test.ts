// The OpenAPI document passes the strict tools (issue 46): Redocly CLI's `recommended` ruleset with 0
// errors and 0 warnings (the rules redocly.yaml turns off are named in docs/api.md), every schema compiles
// in Ajv 2020-12 (strict), OpenAPI 3.1 only, named shared schemas, camelCase operationIds declared by the
// routes, parameters with their bounds, and the response headers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";
import { openApiAjv } from "../helpers/openapi-check";

const root = join(import.meta.dir, "../..");
let t: TestApp;
let doc: Record<string, any>;
let text: string;
beforeAll(async () => {
  t = await createTestApp();
  text = await (await t.request("GET", "/api/v1/openapi.json", { key: null })).text();
  doc = JSON.parse(text);
});
afterAll(() => t.close());

const operations = () =>
  Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Record<string, any>>(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

/** Every schema object of the document, with where it is. */
function* schemasOf(v: unknown, where = "#"): Generator<[string, Record<string, any>]> {
  if (Array.isArray(v)) for (const [i, c] of v.entries()) yield* schemasOf(c, `${where}/${i}`);
  else if (typeof v === "object" && v !== null) {
    for (const [k, c] of Object.entries(v)) {
      if (k === "schema" || (where.endsWith("/components/schemas") && typeof c === "object"))
        yield [`${where}/${k}`, c as Record<string, any>];
      yield* schemasOf(c, `${where}/${k}`);
    }
  }
}

describe("the strict tools", () => {
  test("Redocly CLI's recommended ruleset: 0 errors, 0 warnings", () => {
    const dir = mkdtempSync(join(tmpdir(), "rg-redocly-"));
    try {
      writeFileSync(join(dir, "openapi.json"), text);
      copyFileSync(join(root, "redocly.yaml"), join(dir, "redocly.yaml"));
      const p = Bun.spawnSync(
        [join(root, "node_modules/.bin/redocly"), "lint", "--format", "json", "--max-problems", "500", "openapi.json"],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        },
      );
      const out = p.stdout.toString();
      const report = JSON.parse(out.slice(out.indexOf("{")));
      const problems = report.problems.map(
        (x: { ruleId: string; message: string; location: { pointer: string }[] }) =>
          `${x.ruleId}: ${x.message} at ${x.location[0]?.pointer}`,
      );
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("every schema compiles in Ajv 2020-12, strict", () => {
    const { ajv, schemaOf } = openApiAjv(doc);
    const failed: string[] = [];
    let compiled = 0;
    for (const [where, s] of schemasOf(doc)) {
      try {
        ajv.compile(schemaOf(s));
        compiled++;
      } catch (e) {
        failed.push(`${where}: ${(e as Error).message}`);
      }
    }
    expect(failed).toEqual([]);
    expect(compiled).toBeGreaterThan(300);
  });

  test("OpenAPI 3.1 throughout: no nullable, no TypeBox-private keyword, no numeric strings", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(text).not.toContain('"nullable"');
    expect(text).not.toContain("x-reportgen-");
    expect(text).not.toContain('"format":"numeric"');
    for (const [where, s] of schemasOf(doc)) {
      const walk = (v: any, at: string): void => {
        if (typeof v !== "object" || v === null) return;
        if (typeof v.error === "string") throw new Error(`TypeBox's error keyword at ${at}`);
        for (const [k, c] of Object.entries(v)) if (k !== "properties" && k !== "examples" && k !== "enum") walk(c, `${at}/${k}`);
        for (const [k, c] of Object.entries(v.properties ?? {})) walk(c, `${at}/properties/${k}`);
      };
      walk(s, where);
    }
  });
});

describe("named schemas", () => {
  test("the resources are in components.schemas, referred to by the operations", () => {
    const names = Object.keys(doc.components.schemas);
    for (const n of ["Report", "AccessKey", "Template", "TemplateVersion", "Asset", "SigningIdentity", "WebhookSettings", "Usage"]) {
      expect(names).toContain(n);
    }
    for (const n of ["AuditEvent", "PdfOptions", "EInvoice", "Invoice", "Error", "FieldProblems", "RuleViolations", "RenderFailure"]) {
      expect(names).toContain(n);
    }
    const report = doc.paths["/api/v1/reports/{reportID}"].get.responses["200"].content["application/json"].schema;
    expect(report.properties.data).toEqual({ $ref: "#/components/schemas/Report" });
    expect(doc.paths["/api/v1/reports"].get.responses["404"]).toBeUndefined();
    expect(doc.paths["/api/v1/reports/{reportID}"].get.responses["404"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
  });

  test("the error code enum is written once", () => {
    expect(text.split('"route_not_found"').length - 1).toBe(1);
    expect(doc.components.schemas.Error.properties.error.enum).toContain("validation_failed");
  });

  test("details has the shapes sent: [{field, problem}], [{rule, field, problem}], {code, message}", () => {
    const refs = JSON.stringify(doc.components.schemas.Error.properties.details);
    for (const n of ["FieldProblems", "RuleViolations", "RenderFailure"]) expect(refs).toContain(`#/components/schemas/${n}`);
    expect(doc.components.schemas.RuleViolations.items.required.sort()).toEqual(["field", "problem", "rule"]);
  });

  test("pdfa is nullable as the answers send it; integers are integers", () => {
    const report = doc.components.schemas.Report.properties;
    expect(report.pdfa.type).toEqual(["string", "null"]);
    expect(report.pdfa.enum).toContain(null);
    expect(report.attempts.type).toBe("integer");
    expect(report.size_bytes.type).toEqual(["integer", "null"]);
    const usage = JSON.stringify(doc.components.schemas.Usage);
    expect(usage).not.toContain('"number"');
  });

  test("options.e_invoice refers to the e-invoice model, each field with its BT or BG number", () => {
    const options = doc.components.schemas.PdfOptions.properties;
    expect(options.e_invoice).toEqual({ $ref: "#/components/schemas/EInvoice" });
    const invoice = doc.components.schemas.Invoice;
    const unnumbered: string[] = [];
    for (const [name, s] of Object.entries<Record<string, any>>(invoice.properties)) {
      if (!/\bB[TG]-\d+/.test(JSON.stringify(s))) unnumbered.push(name);
    }
    expect(unnumbered).toEqual([]);
  });
});

describe("operations", () => {
  test("every operation has a stable camelCase operationId, declared by its route", () => {
    const ids = operations().map(({ where, op }) => [where, op.operationId]);
    for (const [where, id] of ids) expect(`${where} ${id}`).toMatch(/ [a-z][A-Za-z0-9]+$/);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    const byId = Object.fromEntries(ids.map(([where, id]) => [id, where]));
    expect(byId).toMatchObject({
      generatePdfAsync: "POST /api/v1/generate-pdf-async",
      getReport: "GET /api/v1/reports/{reportID}",
      listReports: "GET /api/v1/reports",
      downloadReport: "GET /api/v1/reports/{reportID}/download",
      createAccessKey: "POST /api/v1/access-keys",
    });
    // Declared, not generated: the plugin's own names read like getApiV1ReportsByReportID.
    for (const [where, id] of ids) expect(`${where} ${id}`).not.toMatch(/ApiV1|By[A-Z]/);
  });

  test("parameters carry their bounds and defaults", () => {
    const param = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema as Record<string, unknown>;
    expect(param("/api/v1/reports", "limit")).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(param("/api/v1/audit-events", "limit")).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 50 });
    expect(param("/api/v1/reports/{reportID}", "wait")).toMatchObject({ type: "number", minimum: 0, maximum: 30 });
    expect(Object.keys(doc.paths["/api/v1/reports/{reportID}"].get.responses)).toContain("422");
  });

  test("response headers: X-Request-Id everywhere, Location, Retry-After, Idempotent-Replayed", () => {
    for (const { where, op } of operations()) {
      for (const [status, r] of Object.entries<Record<string, any>>(op.responses)) {
        expect(`${where} ${status} ${Object.keys(r.headers ?? {})}`).toContain("X-Request-Id");
      }
    }
    const generate = doc.paths["/api/v1/generate-pdf-async"].post.responses;
    expect(Object.keys(generate["202"].headers)).toEqual(expect.arrayContaining(["Location", "Idempotent-Replayed"]));
    expect(Object.keys(generate["429"].headers)).toContain("Retry-After");
    expect(Object.keys(doc.paths["/api/v1/reports/{reportID}/download"].get.responses["202"].headers)).toContain("Retry-After");
    expect(Object.keys(doc.paths["/api/v1/templates"].post.responses["201"].headers)).toContain("Location");
    expect(generate["404"].description).toContain("`not_found`");
  });
});
