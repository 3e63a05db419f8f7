// POST /api/v1/generate-pdf-async: acceptance, what is stored in the queue, validation of the body,
// the JSON/content-type/size gates, the input limits and the queue caps.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Config } from "../../src/config/settings";
import { createTestApp, type TestApp } from "../helpers/app";
import { claim, EJS, expectError, expectValidation, RAW, rawRequest, submit, succeed, UUID_RE, withApp } from "../helpers/scenario";

// Only one App may run at a time in a process (the cleanup cron job has a process-global name; see
// lifecycle.test.ts), so the default app lives only for the describes that use it; config variants come after.
let t: TestApp;

const post = (body: unknown, o: { key?: string; headers?: Record<string, string> } = {}) =>
  t.request("POST", "/api/v1/generate-pdf-async", { body, ...o });

/** What the queue row holds for the renderer. */
function queued(app: TestApp, id: string) {
  const row = app.app.db.$client
    .query<
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
        const before = await t.app.reportsRepo.countUnfinished();
        await expectValidation(await post(body), field);
        expect(await t.app.reportsRepo.countUnfinished()).toBe(before);
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
    const badJson = [
      "{not json",
      "",
      '{"html_template": "x",',
      "{'html_template': 'x'}",
      '{"html_template":"x","engine":"raw"}}',
      "undefined",
    ];
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
        const before = await t.app.reportsRepo.countUnfinished();
        const res = await rawRequest(t, "POST", "/api/v1/generate-pdf-async", {
          headers: { ...headers, "x-api-key": t.key },
          body: JSON.stringify(RAW),
        });
        await expectError(res, 415, "unsupported_media_type");
        expect(await t.app.reportsRepo.countUnfinished()).toBe(before);
      });
    }
  });
});

describe("size limits", () => {
  test("a body over bodyLimit (by Content-Length) → 413 payload_too_large; at the limit → accepted", async () => {
    await withApp({ bodyLimit: 1000 }, async (a) => {
      const over = JSON.stringify({ ...RAW, html_template: "x".repeat(1200) });
      const res = await a.request("POST", "/api/v1/generate-pdf-async", { body: over, headers: { "content-length": String(over.length) } });
      const body = await expectError(res, 413, "payload_too_large");
      expect(body.message).toContain("1000");
      expect(await a.app.reportsRepo.countUnfinished()).toBe(0);

      const pad = 1000 - JSON.stringify({ ...RAW, html_template: "" }).length;
      const exact = JSON.stringify({ ...RAW, html_template: "y".repeat(pad) });
      expect(exact.length).toBe(1000);
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: exact, headers: { "content-length": "1000" } })).status).toBe(
        202,
      );
    });
  });

  test("over a real socket, an oversized body with Content-Length → 413", async () => {
    await withApp(
      { bodyLimit: 1000 },
      async (a) => {
        const res = await fetch(`${a.baseUrl}/api/v1/generate-pdf-async`, {
          method: "POST",
          headers: { "x-api-key": a.key, "content-type": "application/json" },
          body: JSON.stringify({ ...RAW, html_template: "x".repeat(1200) }),
        });
        await expectError(res, 413, "payload_too_large");
        expect(await a.app.reportsRepo.countUnfinished()).toBe(0);
      },
      { listen: true },
    );
  });

  test("over a real socket, an oversized chunked body (no Content-Length) → 413 too", async () => {
    await withApp(
      { bodyLimit: 1000 },
      async (a) => {
        const bytes = new TextEncoder().encode(JSON.stringify({ ...RAW, html_template: "x".repeat(1200) }));
        const stream = new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) });
        const res = await fetch(`${a.baseUrl}/api/v1/generate-pdf-async`, {
          method: "POST",
          headers: { "x-api-key": a.key, "content-type": "application/json" },
          body: stream,
          duplex: "half",
        } as RequestInit);
        expect({ status: res.status, body: await res.text() }).toMatchObject({ status: 413 });
        expect(await a.app.reportsRepo.countUnfinished()).toBe(0);
      },
      { listen: true },
    );
  });

  test("html_template over templateMaxLength → 422 naming html_template; at the limit → 202", async () => {
    await withApp({ templateMaxLength: 10 }, async (a) => {
      await expectValidation(
        await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x".repeat(11), engine: "raw" } }),
        "html_template",
      );
      await expectValidation(
        await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x".repeat(11), engine: "ejs", data: {} } }),
        "html_template",
      );
      expect(
        (await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x".repeat(10), engine: "raw" } })).status,
      ).toBe(202);
    });
  });

  const dataLimits: [string, Partial<Config>, unknown, unknown, RegExp][] = [
    ["dataMaxDepth 3", { dataMaxDepth: 3 }, { a: { b: { c: {} } } }, { a: { b: { c: 1 } } }, /deeper than 3/],
    ["dataMaxDepth 3 through arrays", { dataMaxDepth: 3 }, { a: [[{}]] }, { a: [[1]] }, /deeper than 3/],
    ["dataMaxKeys 5", { dataMaxKeys: 5 }, { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }, { a: 1, b: 2, c: 3, d: 4, e: 5 }, /more than 5 keys/],
    [
      "dataMaxKeys 5 counting nested keys and items",
      { dataMaxKeys: 5 },
      { a: { b: 1, c: [1, 2, 3] } },
      { a: { b: 1, c: [1, 2] } },
      /more than 5 keys/,
    ],
    ["dataMaxSize 50", { dataMaxSize: 50 }, { a: "y".repeat(60) }, { a: "y".repeat(40) }, /limit is 50/],
  ];
  for (const [label, config, tooBig, fits, message] of dataLimits) {
    test(`${label}: over → 422 naming the limit; within → 202`, async () => {
      await withApp(config, async (a) => {
        const res = await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x", engine: "ejs", data: tooBig } });
        const body = await expectValidation(res, "data");
        expect(body.message).toMatch(message);
        expect(await a.app.reportsRepo.countUnfinished()).toBe(0);
        expect(
          (await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x", engine: "ejs", data: fits } })).status,
        ).toBe(202);
      });
    });
  }

  test("data limits do not apply to raw (data is ignored)", async () => {
    await withApp({ dataMaxDepth: 1, dataMaxKeys: 1, dataMaxSize: 10 }, async (a) => {
      const res = await a.request("POST", "/api/v1/generate-pdf-async", {
        body: { ...RAW, data: { a: { b: { c: "y".repeat(100) } }, d: 1 } },
      });
      expect(res.status).toBe(202);
    });
  });

  test("a hostile, deeply nested data object is refused cleanly (no stack overflow, no 500)", async () => {
    await withApp({ bodyLimit: 10 * 1024 * 1024 }, async (a) => {
      const depth = 5000;
      const json = `${'{"x":'.repeat(depth)}1${"}".repeat(depth)}`;
      const body = `{"html_template":"x","engine":"ejs","data":${json}}`;
      const res = await rawRequest(a, "POST", "/api/v1/generate-pdf-async", {
        headers: { "x-api-key": a.key, "content-type": "application/json" },
        body,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const parsed = (await res.json()) as { error: string };
      expect(typeof parsed.error).toBe("string");
    });
  });
});

describe("queue caps", () => {
  test("accountQueueLimit 2: the third unfinished report → 429 account_queue_full with Retry-After", async () => {
    await withApp({ accountQueueLimit: 2 }, async (a) => {
      const first = await submit(a);
      await submit(a);
      const res = await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW });
      const body = await expectError(res, 429, "account_queue_full");
      expect(body.message).toContain("2");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await a.app.reportsRepo.countUnfinished()).toBe(2);

      // Processing still counts as unfinished.
      const attempt = await claim(a, first);
      await expectError(await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW }), 429, "account_queue_full");

      // Another account has its own budget.
      const other = (await a.app.keys.createForAccount("other", "k")).value;
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW, key: other })).status).toBe(202);

      // Once one finishes, there is room again.
      await Bun.write(a.app.files.pathOf(first), "%PDF-1.4");
      const done = { id: first, attempt, sizeBytes: 8, pageCount: 1, finishedAt: Date.now(), expiresAt: Date.now() + 60_000 };
      expect(await a.app.queue.succeed(done)).toBe(true);
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW })).status).toBe(202);
    });
  });

  test("queueLimit 2 (all accounts): the third → 503 queue_full with Retry-After", async () => {
    await withApp({ queueLimit: 2 }, async (a) => {
      const other = (await a.app.keys.createForAccount("other", "k")).value;
      const first = await submit(a);
      await submit(a, RAW, other);
      for (const key of [a.key, other]) {
        const res = await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW, key });
        await expectError(res, 503, "queue_full");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
      expect(await a.app.reportsRepo.countUnfinished()).toBe(2);
      await succeed(a, first);
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW })).status).toBe(202);
    });
  });

  test("failed and deleted reports free their place", async () => {
    await withApp({ accountQueueLimit: 1 }, async (a) => {
      const id = await submit(a);
      await expectError(await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW }), 429, "account_queue_full");
      expect((await a.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
      const id2 = await submit(a);
      const attempt = await claim(a, id2);
      await a.app.queue.fail(id2, attempt, "x", "y", Date.now());
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: EJS })).status).toBe(202);
    });
  });
});
