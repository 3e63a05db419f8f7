// The public documentation: /api/v1/openapi.json describes every endpoint, and /api/v1/docs is an
// offline Swagger UI page that works in a browser without a key.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ROUTES } from "../../src/app/modules";
import { DOCS_ROUTES } from "../../src/http/route-access";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
let spec: any;
let html: string;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request("GET", "/api/v1/openapi.json", { key: null });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  spec = JSON.parse(await res.text());
  html = await (await t.request("GET", "/api/v1/docs", { key: null })).text();
});
afterAll(() => t.close());

describe("openapi.json", () => {
  test("is an OpenAPI 3 document titled reportgen", () => {
    expect(spec.openapi).toMatch(/^3\./);
    expect(spec.info.title).toBe("reportgen");
    expect(typeof spec.info.version).toBe("string");
  });

  const operations: [string, string][] = [
    ["/api/v1/generate-pdf-async", "post"],
    ["/api/v1/reports", "get"],
    ["/api/v1/reports/{reportID}", "get"],
    ["/api/v1/reports/{reportID}", "delete"],
    ["/api/v1/reports/{reportID}/download", "get"],
    ["/api/v1/reports/{reportID}/e-invoice", "get"],
    ["/api/v1/access-keys", "post"],
    ["/api/v1/access-keys", "get"],
    ["/api/v1/access-keys/{accessKeyID}", "delete"],
    ["/healthz", "get"],
    ["/files/{reportID}", "get"],
    ["/files/{reportID}/e-invoice", "get"],
  ];
  for (const [path, method] of operations) {
    test(`documents ${method.toUpperCase()} ${path}`, () => {
      expect(spec.paths[path]?.[method]).toBeDefined();
      for (const param of path.match(/\{(\w+)\}/g) ?? []) {
        const name = param.slice(1, -1);
        expect(spec.paths[path][method].parameters.some((p: { name: string; in: string }) => p.name === name && p.in === "path")).toBe(
          true,
        );
      }
    });
  }

  test("documents every /api/v1 operation the modules declare, publishes no other, and hides the docs themselves", () => {
    // The list comes from the descriptors (src/app/modules.ts): a module's new route is checked here without
    // this test changing, and a route left out of the document, or documented but not declared, fails.
    const declared = Object.keys(ROUTES.access)
      .filter((route) => !Object.hasOwn(DOCS_ROUTES, route))
      .map((route) => route.replace(/:(\w+)/g, "{$1}"))
      .filter((route) => route.split(" ")[1]!.startsWith("/api/v1/"))
      .sort();
    const documented = Object.entries<Record<string, unknown>>(spec.paths)
      .filter(([path]) => path.startsWith("/api/v1"))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(declared.length).toBeGreaterThan(30);
    expect(documented).toEqual(declared);
    expect(Object.keys(spec.paths).some((p) => p.startsWith("/docs-assets"))).toBe(false);
  });

  test("declares the X-API-Key header scheme, required by default; health and files opt out", () => {
    expect(spec.components.securitySchemes.apiKey).toEqual({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(spec.security).toEqual([{ apiKey: [] }]);
    expect(spec.paths["/healthz"].get.security).toEqual([]);
    expect(spec.paths["/files/{reportID}"].get.security).toEqual([]);
    for (const [path, ops] of Object.entries<any>(spec.paths)) {
      if (!path.startsWith("/api/v1")) continue;
      for (const op of Object.values<any>(ops)) expect(op.security).toBeUndefined();
    }
  });

  test("the generation request schema matches the interface: html_template, engine (ejs|raw), data; or template_id", () => {
    const schema = spec.paths["/api/v1/generate-pdf-async"].post.requestBody.content["application/json"].schema;
    // Exactly one form, inline (html_template + engine) or stored (template_id): the service answers 422
    // otherwise (tests/api/templates-render.test.ts), so neither field is required by the schema alone.
    expect(schema.required ?? []).toEqual([]);
    expect(schema.properties.html_template.type).toBe("string");
    expect(schema.properties.template_id.format).toBe("uuid");
    expect(JSON.stringify(schema.properties.template_version)).toContain('"type":"integer"');
    const engine = schema.properties.engine;
    const values = engine.enum ?? engine.anyOf?.map((v: { const: string }) => v.const);
    expect([...values].sort()).toEqual(["ejs", "raw"]);
    expect(schema.properties.data).toBeDefined();
    expect(schema.additionalProperties).toBe(false);
  });

  test("documents the status codes each endpoint answers", () => {
    const codes = (path: string, method: string) => Object.keys(spec.paths[path][method].responses ?? {});
    expect(codes("/api/v1/generate-pdf-async", "post")).toEqual(expect.arrayContaining(["202", "413", "415", "422", "429", "503"]));
    expect(codes("/api/v1/reports/{reportID}/download", "get")).toEqual(expect.arrayContaining(["200", "202", "404", "409", "410"]));
    expect(codes("/api/v1/access-keys", "post")).toContain("201");
  });
});

describe("/api/v1/docs", () => {
  test("is an HTML page", async () => {
    const res = await t.request("GET", "/api/v1/docs", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(html).toContain("swagger-ui");
  });

  test("loads no script or stylesheet from another origin", () => {
    const srcs = [...html.matchAll(/<script[^>]*\ssrc="([^"]*)"/g)].map((m) => m[1]!);
    const hrefs = [...html.matchAll(/<link[^>]*\shref="([^"]*)"/g)].map((m) => m[1]!);
    expect(srcs.length).toBeGreaterThan(0);
    for (const url of [...srcs, ...hrefs]) {
      expect(url).not.toMatch(/^(https?:)?\/\//);
    }
    expect(html).not.toMatch(/https?:\/\/(unpkg|cdn|cdnjs|jsdelivr)/);
  });

  test("every asset the page references is served (200, right type, no key)", async () => {
    const refs = [...html.matchAll(/<(?:script|link)[^>]*\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(2);
    for (const ref of refs) {
      const url = new URL(ref, `${t.baseUrl}/api/v1/docs`);
      const res = await t.app.http!.handle(new Request(url));
      expect({ ref, status: res.status }).toEqual({ ref, status: 200 });
      const type = res.headers.get("content-type") ?? "";
      if (ref.endsWith(".js")) expect(type).toContain("javascript");
      if (ref.endsWith(".css")) expect(type).toContain("text/css");
      expect((await res.text()).length).toBeGreaterThan(1000);
    }
  });

  test("the spec URL the page loads resolves, without a key, to the OpenAPI document", async () => {
    // Swagger UI fetches `url` relative to the page, exactly like a browser resolves it.
    const m = /SwaggerUIBundle\(\{\s*url:\s*"([^"]+)"/.exec(html);
    expect(m).not.toBeNull();
    const resolved = new URL(m![1]!, `${t.baseUrl}/api/v1/docs`);
    const res = await t.app.http!.handle(new Request(resolved));
    expect({ url: resolved.pathname, status: res.status }).toEqual({ url: "/api/v1/openapi.json", status: 200 });
  });

  test("the page's markup is well-formed: every attribute value parses whole, nothing spills into text", async () => {
    // Parsed the way a browser tokenizes it: the body holds only the UI's mount point and scripts.
    const text: string[] = [];
    await new HTMLRewriter()
      .on("body", { text: (chunk) => void (chunk.text.trim() && text.push(chunk.text)) })
      .transform(new Response(html))
      .text();
    expect(text.join("")).not.toContain("reportgen");
    expect(text.join("")).not.toContain("<uuid>");
  });
});
