// POST /api/v1/generate-pdf-async on the default config: acceptance, what is stored in the queue,
// validation of the body and the JSON/content-type gates. The size and input limits and the queue
// caps (config variants): generate-limits.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { expectError, expectValidation, RAW, rawRequest, submit, UUID_RE } from "../helpers/scenario";

// Only one App may run at a time in a process (the cleanup cron job has a process-global name; see
// lifecycle.test.ts), so the default app lives only for the describes that use it; the config variants, in
// generate-limits.test.ts, each run their own.
let t: TestApp;

const post = (body: unknown, o: { key?: string; headers?: Record<string, string> } = {}) =>
  t.request("POST", "/api/v1/generate-pdf-async", { body, ...o });

/** What the queue row holds for the renderer. */
function queued(app: TestApp, id: string) {
  const row = app.app.services.backend
    .db!.$client.query<
      { engine: string; status: string; template: string | null; data: string | null; options: string | null; attempts: number },
      [string]
    >("SELECT engine, status, template, data, options, attempts FROM reports WHERE id = ?")
    .get(id);
  if (!row) throw new Error(`no row for ${id}`);
  return row;
}

describe("default config", () => {
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  describe("accepted requests", () => {
    test("raw: 202 {report_id: uuid} with a Location header to its status", async () => {
      const res = await post(RAW);
      expect(res.status).toBe(202);
      const body = (await res.json()) as Record<string, string>;
      expect(Object.keys(body)).toEqual(["report_id"]);
      expect(body.report_id).toMatch(UUID_RE);
      expect(res.headers.get("location")).toBe(`/api/v1/reports/${body.report_id}`);
      const status = await t.request("GET", res.headers.get("location")!);
      expect(status.status).toBe(200);
      expect(((await status.json()) as { data: { status: string; report_id: string; engine: string } }).data).toMatchObject({
        report_id: body.report_id,
        status: "queued",
        engine: "raw",
      });
    });

    test("the report is durably queued with its template before the answer", async () => {
      const id = await submit(t, { html_template: "<p>stored</p>", engine: "raw" });
      expect(queued(t, id)).toEqual({ engine: "raw", status: "queued", template: "<p>stored</p>", data: null, options: null, attempts: 0 });
    });

    test("ejs: data is stored as JSON for the renderer", async () => {
      const data = { name: "Ada", items: [1, 2, { deep: true }], nested: { a: null } };
      const id = await submit(t, { html_template: "<%= name %>", engine: "ejs", data });
      const row = queued(t, id);
      expect(row.engine).toBe("ejs");
      expect(row.template).toBe("<%= name %>");
      expect(JSON.parse(row.data!)).toEqual(data);
    });

    test("ejs with an empty data object is accepted", async () => {
      const id = await submit(t, { html_template: "static", engine: "ejs", data: {} });
      expect(queued(t, id).data).toBe("{}");
    });

    const rawData: [string, unknown][] = [
      ["an array", [1, 2, 3]],
      ["a string", "text"],
      ["null", null],
      ["a number", 7],
      ["an object", { a: 1 }],
    ];
    for (const [label, data] of rawData) {
      test(`raw ignores data (${label}): accepted, nothing stored`, async () => {
        const id = await submit(t, { ...RAW, data });
        expect(queued(t, id).data).toBeNull();
      });
    }

    test("valid print options are accepted and stored", async () => {
      const options = {
        format: "Letter",
        landscape: true,
        print_background: false,
        scale: 0.5,
        margin: { top: "10mm", right: "1in", bottom: "2.5cm", left: "0" },
      };
      const id = await submit(t, { ...RAW, options });
      expect(JSON.parse(queued(t, id).options!)).toEqual(options);
    });

    for (const scale of [0.1, 2, 1.25]) {
      test(`scale ${scale} is within range`, async () => {
        expect((await post({ ...RAW, options: { scale } })).status).toBe(202);
      });
    }

    for (const format of ["A3", "A4", "A5", "Letter", "Legal", "Tabloid"]) {
      test(`format ${format} is accepted`, async () => {
        expect((await post({ ...RAW, options: { format } })).status).toBe(202);
      });
    }

    test("Content-Type with a charset parameter is accepted", async () => {
      expect((await post(RAW, { headers: { "content-type": "application/json; charset=utf-8" } })).status).toBe(202);
    });

    test("Content-Type is case-insensitive (RFC 9110): APPLICATION/JSON is accepted", async () => {
      // The guard lower-cases the media type and lets the request in, so the body must be parsed as JSON too.
      const res = await post(RAW, { headers: { "content-type": "Application/JSON" } });
      expect({ status: res.status, body: await res.text() }).toMatchObject({ status: 202 });
    });

    test("a template with unicode and EJS tags survives unchanged", async () => {
      const tpl = "<h1>Grüße, <%= name %> — 数据 📄</h1>";
      const id = await submit(t, { html_template: tpl, engine: "ejs", data: { name: "Zoë" } });
      expect(queued(t, id).template).toBe(tpl);
    });

    test("each submission gets a new id", async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add(await submit(t));
      expect(ids.size).toBe(5);
    });
  });

  describe("validation → 422 validation_failed with details naming the field", () => {
    const invalid: [string, unknown, string][] = [
      ["html_template missing", { engine: "raw" }, "html_template"],
      ["html_template empty", { html_template: "", engine: "raw" }, "html_template"],
      ["html_template a number", { html_template: 5, engine: "raw" }, "html_template"],
      ["html_template null", { html_template: null, engine: "raw" }, "html_template"],
      ["html_template an array", { html_template: ["<p>"], engine: "raw" }, "html_template"],
      ["html_template an object", { html_template: { html: "<p>" }, engine: "raw" }, "html_template"],
      ["engine missing", { html_template: "x" }, "engine"],
      ["engine pdf", { html_template: "x", engine: "pdf" }, "engine"],
      ["engine 5", { html_template: "x", engine: 5 }, "engine"],
      ["engine EJS (case)", { html_template: "x", engine: "EJS" }, "engine"],
      ["engine empty", { html_template: "x", engine: "" }, "engine"],
      ["engine null", { html_template: "x", engine: null }, "engine"],
      ["ejs without data", { html_template: "<%= a %>", engine: "ejs" }, "data"],
      ["ejs with data null", { html_template: "x", engine: "ejs", data: null }, "data"],
      ["ejs with data an array", { html_template: "x", engine: "ejs", data: [{ a: 1 }] }, "data"],
      ["ejs with data a string", { html_template: "x", engine: "ejs", data: '{"a":1}' }, "data"],
      ["ejs with data a number", { html_template: "x", engine: "ejs", data: 5 }, "data"],
      ["ejs with data a boolean", { html_template: "x", engine: "ejs", data: true }, "data"],
      ["format B9", { ...RAW, options: { format: "B9" } }, "options.format"],
      ["format a4 (case)", { ...RAW, options: { format: "a4" } }, "options.format"],
      ["scale 5", { ...RAW, options: { scale: 5 } }, "options.scale"],
      ["scale 0", { ...RAW, options: { scale: 0 } }, "options.scale"],
      ["scale 0.05", { ...RAW, options: { scale: 0.05 } }, "options.scale"],
      ["scale as a string", { ...RAW, options: { scale: "1" } }, "options.scale"],
      ["margin 10furlongs", { ...RAW, options: { margin: { top: "10furlongs" } } }, "options.margin.top"],
      ["margin negative", { ...RAW, options: { margin: { left: "-5mm" } } }, "options.margin.left"],
      ["margin without unit", { ...RAW, options: { margin: { bottom: "10" } } }, "options.margin.bottom"],
      ["margin a number", { ...RAW, options: { margin: { right: 10 } } }, "options.margin.right"],
      ["margin with CSS injection", { ...RAW, options: { margin: { top: "1mm; color: red" } } }, "options.margin.top"],
      ["landscape a string", { ...RAW, options: { landscape: "yes" } }, "options.landscape"],
      ["print_background a string", { ...RAW, options: { print_background: "true" } }, "options.print_background"],
    ];
    for (const [label, body, field] of invalid) {
      test(label, async () => {
        const before = await t.app.services.repos.reports.countUnfinished();
        await expectValidation(await post(body), field);
        expect(await t.app.services.repos.reports.countUnfinished()).toBe(before);
      });
    }

    test("the message names the invalid field and points to the OpenAPI document", async () => {
      const body = await expectValidation(await post({ html_template: "x", engine: "pdf" }), "engine");
      expect(body.message).toContain("engine");
      expect(body.details.find((d: { field: string }) => d.field === "engine").problem).toContain("ejs");
    });

    test("several problems are all reported", async () => {
      const body = await expectValidation(await post({ html_template: "", engine: "pdf" }), "engine");
      expect(body.details.map((d: { field: string }) => d.field)).toContain("html_template");
    });

    // The schema declares additionalProperties: false (and publishes it in the OpenAPI document):
    // an unknown or misspelled field must be refused, not silently dropped.
    const unknownFields: [string, unknown][] = [
      ["an unknown top-level field", { ...RAW, extra: 1 }],
      ["a misspelled top-level field (templat)", { templat: "x", ...RAW }],
      ["an unknown option", { ...RAW, options: { paper: "A4" } }],
      ["an unknown margin side", { ...RAW, options: { margin: { middle: "1mm" } } }],
    ];
    for (const [label, body] of unknownFields) {
      test(`${label} → 422`, async () => {
        const res = await post(body);
        expect({ status: res.status, body: await res.text() }).toMatchObject({ status: 422 });
      });
    }

    // options and margin are objects: a scalar must be refused, not coerced into {}.
    const wrongShapes: [string, unknown][] = [
      ["options a string", { ...RAW, options: "A4" }],
      ["options a number", { ...RAW, options: 5 }],
      ["options null", { ...RAW, options: null }],
      ["options an array", { ...RAW, options: [] }],
      ["margin a string", { ...RAW, options: { margin: "1mm" } }],
    ];
    for (const [label, body] of wrongShapes) {
      test(`${label} → 422`, async () => {
        const res = await post(body);
        expect({ status: res.status, body: await res.text() }).toMatchObject({ status: 422 });
      });
    }
  });

  describe("body gates", () => {
    // An empty body is no body, not malformed JSON (tests/api/request-order.test.ts): 422 naming the fields.
    const badJson = ["{not json", '{"html_template": "x",', "{'html_template': 'x'}", '{"html_template":"x","engine":"raw"}}', "undefined"];
    for (const body of badJson) {
      test(`malformed JSON ${JSON.stringify(body)} → 400 invalid_json`, async () => {
        await expectError(
          await rawRequest(t, "POST", "/api/v1/generate-pdf-async", {
            headers: { "x-api-key": t.key, "content-type": "application/json" },
            body,
          }),
          400,
          "invalid_json",
        );
      });
    }

    test("JSON that is not an object → 422", async () => {
      for (const body of ["[1,2]", "null", '"text"', "42"]) {
        const res = await rawRequest(t, "POST", "/api/v1/generate-pdf-async", {
          headers: { "x-api-key": t.key, "content-type": "application/json" },
          body,
        });
        await expectError(res, 422, "validation_failed");
      }
    });

    const types: [string, Record<string, string>][] = [
      ["text/plain", { "content-type": "text/plain" }],
      ["no Content-Type", {}],
      ["form-urlencoded", { "content-type": "application/x-www-form-urlencoded" }],
      ["multipart", { "content-type": "multipart/form-data; boundary=x" }],
      ["text/json", { "content-type": "text/json" }],
      ["application/jsonx", { "content-type": "application/jsonx" }],
    ];
    for (const [label, headers] of types) {
      test(`${label} → 415 unsupported_media_type`, async () => {
        const before = await t.app.services.repos.reports.countUnfinished();
        const res = await rawRequest(t, "POST", "/api/v1/generate-pdf-async", {
          headers: { ...headers, "x-api-key": t.key },
          body: JSON.stringify(RAW),
        });
        await expectError(res, 415, "unsupported_media_type");
        expect(await t.app.services.repos.reports.countUnfinished()).toBe(before);
      });
    }
  });
});
