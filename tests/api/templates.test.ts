// /api/v1/templates without Chromium: create, versions, listing, reading, deletion, idempotency, the
// schema checks, the limits and cross-account 404s, over the real HTTP app. Sample renders need the
// renderer: tests/api/templates-render.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { inlined } from "../helpers/openapi-check";

const TEMPLATE = "<h1>Invoice <%= number %></h1>";
const SCHEMA = {
  type: "object",
  required: ["number", "lines"],
  properties: {
    number: { type: "string" },
    lines: { type: "array", items: { type: "object", required: ["price"], properties: { price: { type: "number" } } } },
  },
};

let t: TestApp;
let other: string;
beforeAll(async () => {
  t = await createTestApp({ config: { templateMaxLength: 5000 } });
  other = (await t.app.services.keys.createForAccount("other", "k")).value;
});
afterAll(() => t.close());

async function create(body: Record<string, unknown>, o: { key?: string; headers?: Record<string, string> } = {}) {
  const r = await t.request("POST", "/api/v1/templates", {
    body: { name: "Invoice", engine: "ejs", html_template: TEMPLATE, ...body },
    ...o,
  });
  return { status: r.status, headers: r.headers, body: (await r.json()) as any };
}

async function json(method: string, path: string, o: { key?: string; body?: unknown } = {}) {
  const r = await t.request(method, path, o);
  return { status: r.status, body: (await r.json()) as any };
}

describe("POST /templates", () => {
  test("201 with template_id, version 1, warnings and a Location; the template reads back", async () => {
    const r = await create({ data_schema: SCHEMA, sample_data: { number: "7", lines: [] }, options: { format: "Letter" } });
    expect(r.status).toBe(201);
    expect(r.body.template_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.version).toBe(1);
    expect(Array.isArray(r.body.warnings)).toBe(true);
    // No renderer in this app: the preflight says the sample was not rendered instead of guessing.
    expect(r.body.warnings.map((w: any) => w.code)).toContain("sample_not_rendered");
    expect(r.headers.get("location")).toBe(`/api/v1/templates/${r.body.template_id}`);
    const got = await json("GET", `/api/v1/templates/${r.body.template_id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ template_id: r.body.template_id, name: "Invoice", engine: "ejs", latest_version: 1 });
    expect(got.body.data.latest).toMatchObject({
      version: 1,
      html_template: TEMPLATE,
      data_schema: SCHEMA,
      sample_data: { number: "7", lines: [] },
      options: { format: "Letter" },
    });
    expect(got.body.data.latest.warnings).toEqual(r.body.warnings);
    expect(got.body.data.versions.map((v: any) => v.version)).toEqual([1]);
  });

  test.each([
    ["no name", { name: undefined }, "name"],
    ["blank name", { name: "   " }, "name"],
    ["an unknown engine", { engine: "pug" }, "engine"],
    ["an empty template", { html_template: "" }, "html_template"],
    ["a template over --template-max-length", { html_template: "x".repeat(5001) }, "html_template"],
    ["an unknown field", { colour: "red" }, "colour"],
    ["a schema of the wrong draft shape", { data_schema: { type: "objekt" } }, "data_schema.type"],
    ["a schema that is not an object", { data_schema: [1, 2] }, "data_schema"],
    ["a schema with a remote $ref", { data_schema: { $ref: "https://example.com/s.json" } }, "data_schema"],
    [
      "a schema with an invalid pattern",
      { data_schema: { type: "object", properties: { a: { type: "string", pattern: "(" } } } },
      "data_schema",
    ],
    ["a schema over 256 KB", { data_schema: { type: "object", description: "x".repeat(300_000) } }, "data_schema"],
    ["sample data not matching the schema", { data_schema: SCHEMA, sample_data: { number: 7 } }, "sample_data.number"],
    ["sample data that is not an object", { sample_data: "x" }, "sample_data"],
    ["a schema with engine raw", { engine: "raw", data_schema: SCHEMA }, "data_schema"],
    ["stored encryption passwords", { options: { encryption: { owner_password: "secret" } } }, "options.encryption"],
    ["width without height", { options: { width: "100mm" } }, "options.height"],
  ])("422 validation_failed for %s, naming the field", async (_name, body, field) => {
    const r = await create(body);
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("validation_failed");
    expect(JSON.stringify(r.body.details)).toContain(`"${field}`);
  });

  test("sample data failing the schema: details name every failing path", async () => {
    const r = await create({ data_schema: SCHEMA, sample_data: { lines: [{ price: "x" }, {}] } });
    expect(r.status).toBe(422);
    expect(r.body.details.map((d: any) => d.field).sort()).toEqual([
      "sample_data.lines[0].price",
      "sample_data.lines[1].price",
      "sample_data.number",
    ]);
  });

  test("401 without a key", async () => {
    const r = await t.request("POST", "/api/v1/templates", { key: null, body: { name: "x", engine: "raw", html_template: "<p>" } });
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ error: "unauthorized" });
  });

  test("Idempotency-Key: a retry answers the same template once; another body with the key is 422", async () => {
    const headers = { "idempotency-key": crypto.randomUUID() };
    const a = await create({ name: "Idem" }, { headers });
    const b = await create({ name: "Idem" }, { headers });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
    const listed = (await json("GET", "/api/v1/templates?limit=100")).body.data.filter((x: any) => x.name === "Idem");
    expect(listed.length).toBe(1);
    const c = await create({ name: "Idem 2" }, { headers });
    expect(c.status).toBe(422);
    expect(c.body.error).toBe("idempotency_key_reused");
  });
});

describe("versions", () => {
  test("POST /templates/{id}/versions adds n+1; each version stays as saved; GET shows the latest and the list", async () => {
    const { body: created } = await create({ name: "Versioned" });
    const id = created.template_id;
    const v2 = await json("POST", `/api/v1/templates/${id}/versions`, { body: { html_template: "<h1>v2 <%= number %></h1>" } });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ template_id: id, version: 2 });
    const v3 = await json("POST", `/api/v1/templates/${id}/versions`, {
      body: { html_template: "<h1>v3</h1>", data_schema: SCHEMA, options: { landscape: true } },
    });
    expect(v3.body.version).toBe(3);
    const got = (await json("GET", `/api/v1/templates/${id}`)).body.data;
    expect(got.latest_version).toBe(3);
    expect(got.latest).toMatchObject({ version: 3, html_template: "<h1>v3</h1>", data_schema: SCHEMA, options: { landscape: true } });
    expect(got.versions.map((v: any) => v.version)).toEqual([3, 2, 1]);
    const one = await json("GET", `/api/v1/templates/${id}/versions/1`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ template_id: id, version: 1, html_template: TEMPLATE, data_schema: null, options: null });
    expect((await json("GET", `/api/v1/templates/${id}/versions/2`)).body.data.html_template).toBe("<h1>v2 <%= number %></h1>");
  });

  test("concurrent saves get consecutive numbers, never the same one", async () => {
    const id = (await create({ name: "Race" })).body.template_id;
    const rs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => json("POST", `/api/v1/templates/${id}/versions`, { body: { html_template: `<p>${i}</p>` } })),
    );
    expect(rs.map((r) => r.body.version).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  test("404 for an unknown template or version, or one that is not a number", async () => {
    const id = (await create({ name: "Few" })).body.template_id;
    for (const path of [
      `/api/v1/templates/${crypto.randomUUID()}/versions/1`,
      `/api/v1/templates/${id}/versions/2`,
      `/api/v1/templates/${id}/versions/0`,
      `/api/v1/templates/${id}/versions/abc`,
      `/api/v1/templates/not-a-uuid`,
    ]) {
      const r = await json("GET", path);
      expect(r.status, path).toBe(404);
      expect(r.body.error).toBe("not_found");
    }
    const add = await json("POST", `/api/v1/templates/${crypto.randomUUID()}/versions`, { body: { html_template: "<p>" } });
    expect(add.status).toBe(404);
  });

  test("422 for a bad version body (no template, an unknown field, an invalid schema)", async () => {
    const id = (await create({ name: "Bad versions" })).body.template_id;
    for (const body of [{}, { html_template: "<p>", engine: "raw" }, { html_template: "<p>", data_schema: { minimum: "zero" } }]) {
      const r = await json("POST", `/api/v1/templates/${id}/versions`, { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error).toBe("validation_failed");
    }
    expect((await json("GET", `/api/v1/templates/${id}`)).body.data.latest_version).toBe(1);
  });
});

describe("listing", () => {
  test("cursor pages, newest first, only the account's own templates", async () => {
    const fresh = await createTestApp();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await fresh.request("POST", "/api/v1/templates", {
          body: { name: `T${i}`, engine: "raw", html_template: `<p>${i}</p>` },
        });
        ids.push(((await r.json()) as any).template_id);
        await Bun.sleep(2); // distinct created_at: within one millisecond the order is by id
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const q: string = cursor ? `?limit=2&cursor=${cursor}` : "?limit=2";
        const page = (await (await fresh.request("GET", `/api/v1/templates${q}`)).json()) as any;
        expect(page.data.length).toBeLessThanOrEqual(2);
        seen.push(...page.data.map((x: any) => x.template_id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());
      const bad = await fresh.request("GET", "/api/v1/templates?cursor=nonsense");
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as any).error).toBe("invalid_cursor");
      const badLimit = await fresh.request("GET", "/api/v1/templates?limit=101");
      expect(badLimit.status).toBe(422);
    } finally {
      await fresh.close();
    }
  });
});

describe("another account", () => {
  test("gets 404 on every route for a template it does not own, and never lists it", async () => {
    const id = (await create({ name: "Private" })).body.template_id;
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/v1/templates/${id}`],
      ["GET", `/api/v1/templates/${id}/versions/1`],
      ["POST", `/api/v1/templates/${id}/versions`, { html_template: "<p>stolen</p>" }],
      ["DELETE", `/api/v1/templates/${id}`],
      ["POST", "/api/v1/generate-pdf-async", { template_id: id, data: {} }],
    ];
    for (const [method, path, body] of calls) {
      const r = await json(method, path, { key: other, body });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error).toBe("not_found");
    }
    expect((await json("GET", "/api/v1/templates", { key: other })).body.data).toEqual([]);
    // Still there, unchanged, for its owner.
    expect((await json("GET", `/api/v1/templates/${id}`)).body.data.latest_version).toBe(1);
  });
});

describe("DELETE /templates/{id}", () => {
  test("deletes the template and its versions; a second delete is 404", async () => {
    const id = (await create({ name: "Doomed" })).body.template_id;
    const del = await json("DELETE", `/api/v1/templates/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ template_id: id, deleted: true });
    expect((await json("GET", `/api/v1/templates/${id}`)).status).toBe(404);
    expect((await json("GET", `/api/v1/templates/${id}/versions/1`)).status).toBe(404);
    expect((await json("DELETE", `/api/v1/templates/${id}`)).status).toBe(404);
    const rows = t.app.services.backend.db!.$client.query("SELECT count(*) AS n FROM template_versions WHERE template_id = ?").get(id) as {
      n: number;
    };
    expect(rows.n).toBe(0);
  });
});

describe("OpenAPI", () => {
  test("documents every templates route with its statuses, and the request bodies with examples", async () => {
    const spec = inlined((await (await t.request("GET", "/api/v1/openapi.json", { key: null })).json()) as any);
    const op = (path: string, method: string) => spec.paths[path]?.[method];
    const routes: [string, string, string][] = [
      ["/api/v1/templates", "post", "201"],
      ["/api/v1/templates", "get", "200"],
      ["/api/v1/templates/{templateID}", "get", "200"],
      ["/api/v1/templates/{templateID}", "delete", "200"],
      ["/api/v1/templates/{templateID}/versions", "post", "201"],
      ["/api/v1/templates/{templateID}/versions/{version}", "get", "200"],
    ];
    for (const [path, method, ok] of routes) {
      expect(op(path, method)?.tags, `${method} ${path}`).toEqual(["Templates"]);
      expect(Object.keys(op(path, method).responses)).toEqual(expect.arrayContaining([ok, "401"]));
    }
    for (const path of ["/api/v1/templates", "/api/v1/templates/{templateID}/versions"]) {
      const body = op(path, "post").requestBody.content["application/json"].schema;
      expect(body.examples?.[0]?.html_template).toContain("<%=");
    }
    expect(Object.keys(op("/api/v1/templates", "post").responses)).toContain("422");
  });
});
