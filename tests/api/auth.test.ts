// X-API-Key authentication: every /api/v1 route answers exactly 401 {"error":"unauthorized"} without a
// valid key, before routing (404) and before any body or parameter validation. Documentation,
// health and signed downloads are public.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { expectError, expectUnauthorized, keyParts, RAW, rawRequest, submit, unknownKey } from "../helpers/scenario";

let t: TestApp;
beforeAll(async () => (t = await createTestApp({ config: { bodyLimit: 1000 } })));
afterAll(() => t.close());

const SOME_UUID = "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e";

/** Every /api/v1 endpoint, with a request that would succeed (or fail validation) given a key. */
const endpoints: [string, string, unknown?][] = [
  ["GET", "/api/v1/reports"],
  ["GET", "/api/v1/reports?limit=5&status=queued"],
  ["POST", "/api/v1/generate-pdf-async", RAW],
  ["GET", `/api/v1/reports/${SOME_UUID}`],
  ["GET", `/api/v1/reports/${SOME_UUID}/download`],
  ["DELETE", `/api/v1/reports/${SOME_UUID}`],
  ["POST", "/api/v1/access-keys", { name: "x" }],
  ["GET", "/api/v1/access-keys"],
  ["DELETE", "/api/v1/access-keys/abcdefghijkm"],
];

describe("requests without a valid key get exactly 401 {error: unauthorized}", () => {
  for (const [method, path, body] of endpoints) {
    test(`${method} ${path} without X-API-Key`, async () => {
      await expectUnauthorized(await t.request(method, path, { key: null, body }));
    });
    test(`${method} ${path} with a well-formed unknown key`, async () => {
      await expectUnauthorized(await t.request(method, path, { key: unknownKey(), body }));
    });
  }

  const badKeys: [string, () => string | null, Record<string, string>?][] = [
    ["no header", () => null],
    ["empty header", () => null, { "x-api-key": "" }],
    ["blank header", () => null, { "x-api-key": "   " }],
    ["garbage", () => "hello"],
    ["well-formed, unknown id", () => unknownKey()],
    [
      "right id, wrong secret",
      () => {
        const { id, secret } = keyParts(t.key);
        const flipped = (secret[0] === "A" ? "B" : "A") + secret.slice(1);
        return `rg_${id}_${flipped}`;
      },
    ],
    ["right secret, other id", () => `rg_abcdefghijkm_${keyParts(t.key).secret}`],
    ["key with a trailing character", () => `${t.key}x`],
    ["key truncated by one character", () => t.key.slice(0, -1)],
    ["key upper-cased", () => t.key.toUpperCase()],
    ["key without its rg_ prefix", () => t.key.slice(3)],
    ["only the key id", () => keyParts(t.key).id],
    ["Bearer-prefixed key", () => `Bearer ${t.key}`],
    ["a UUID", () => crypto.randomUUID()],
    ["a 300-character value", () => `rg_${"a".repeat(297)}`],
    ["rg__ skeleton", () => "rg__"],
  ];

  for (const [name, key, headers] of badKeys) {
    test(name, async () => {
      await expectUnauthorized(await t.request("GET", "/api/v1/reports", { key: key(), headers }));
    });
  }

  test("the key in Authorization or in the query string is not accepted", async () => {
    await expectUnauthorized(await t.request("GET", "/api/v1/reports", { key: null, headers: { authorization: `Bearer ${t.key}` } }));
    await expectUnauthorized(await t.request("GET", `/api/v1/reports?api_key=${encodeURIComponent(t.key)}`, { key: null }));
    await expectUnauthorized(await t.request("GET", `/api/v1/reports?x-api-key=${encodeURIComponent(t.key)}`, { key: null }));
  });

  test("the header name is case-insensitive (positive control)", async () => {
    const res = await t.request("GET", "/api/v1/reports", { key: null, headers: { "X-API-KEY": t.key } });
    expect(res.status).toBe(200);
  });

  test("an unauthenticated POST creates nothing", async () => {
    const before = await t.app.services.repos.reports.countUnfinished();
    await expectUnauthorized(await t.request("POST", "/api/v1/generate-pdf-async", { key: null, body: RAW }));
    await expectUnauthorized(await t.request("POST", "/api/v1/generate-pdf-async", { key: unknownKey(), body: RAW }));
    expect(await t.app.services.repos.reports.countUnfinished()).toBe(before);
    const keysBefore = (await t.app.services.keys.list()).length;
    await expectUnauthorized(await t.request("POST", "/api/v1/access-keys", { key: unknownKey(), body: { name: "sneaky" } }));
    expect((await t.app.services.keys.list()).length).toBe(keysBefore);
  });

  test("an unauthenticated DELETE deletes nothing", async () => {
    const id = await submit(t);
    await expectUnauthorized(await t.request("DELETE", `/api/v1/reports/${id}`, { key: unknownKey() }));
    expect((await t.request("GET", `/api/v1/reports/${id}`)).status).toBe(200);
    const { id: keyId } = keyParts(t.key);
    await expectUnauthorized(await t.request("DELETE", `/api/v1/access-keys/${keyId}`, { key: null }));
    expect((await t.request("GET", "/api/v1/reports")).status).toBe(200);
  });
});

describe("401 comes before 404 and before validation", () => {
  const cases: [string, string, string, { headers?: Record<string, string>; body?: string }][] = [
    ["unknown route", "GET", "/api/v1/nope", {}],
    ["unknown nested route", "GET", "/api/v1/reports/x/y/z", {}],
    ["the bare prefix", "GET", "/api/v1", {}],
    ["unknown route, POST", "POST", "/api/v1/nope", { headers: { "content-type": "application/json" }, body: "{}" }],
    ["unknown method", "PATCH", "/api/v1/reports", {}],
    ["malformed JSON", "POST", "/api/v1/generate-pdf-async", { headers: { "content-type": "application/json" }, body: "{not json" }],
    ["text/plain body", "POST", "/api/v1/generate-pdf-async", { headers: { "content-type": "text/plain" }, body: "hello" }],
    ["no content type", "POST", "/api/v1/generate-pdf-async", { body: JSON.stringify(RAW) }],
    [
      "body over the limit",
      "POST",
      "/api/v1/generate-pdf-async",
      {
        headers: { "content-type": "application/json", "content-length": "5000" },
        body: JSON.stringify({ ...RAW, html_template: "x".repeat(4950) }),
      },
    ],
    [
      "invalid body",
      "POST",
      "/api/v1/generate-pdf-async",
      { headers: { "content-type": "application/json" }, body: JSON.stringify({ engine: "pdf" }) },
    ],
    [
      "invalid key name",
      "POST",
      "/api/v1/access-keys",
      { headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "" }) },
    ],
    ["invalid report id", "GET", "/api/v1/reports/not-a-uuid", {}],
    ["invalid limit", "GET", "/api/v1/reports?limit=0", {}],
    ["bogus cursor", "GET", "/api/v1/reports?cursor=bogus", {}],
  ];

  for (const [name, method, path, opts] of cases) {
    test(`${name} without a key → 401`, async () => {
      await expectUnauthorized(await rawRequest(t, method, path, opts));
    });
    test(`${name} with an unknown key → 401`, async () => {
      await expectUnauthorized(await rawRequest(t, method, path, { ...opts, headers: { ...opts.headers, "x-api-key": unknownKey() } }));
    });
  }

  test("with a valid key the same requests get their own errors (control)", async () => {
    const withKey = (method: string, path: string, o: { headers?: Record<string, string>; body?: string }) =>
      rawRequest(t, method, path, { ...o, headers: { ...o.headers, "x-api-key": t.key } });
    await expectError(await withKey("GET", "/api/v1/nope", {}), 404, "route_not_found");
    await expectError(
      await withKey("POST", "/api/v1/generate-pdf-async", { headers: { "content-type": "application/json" }, body: "{not json" }),
      400,
      "invalid_json",
    );
    await expectError(
      await withKey("POST", "/api/v1/generate-pdf-async", { headers: { "content-type": "text/plain" }, body: "hello" }),
      415,
      "unsupported_media_type",
    );
    await expectError(await withKey("GET", "/api/v1/reports/not-a-uuid", {}), 404, "not_found");
  });
});

describe("odd spellings of protected paths never bypass the key", () => {
  const paths = [
    "//api/v1/reports",
    "/api//v1/reports",
    "/api/v1//reports",
    "/API/V1/reports",
    "/api/v1/reports/",
    "/api/%761/reports",
    "/api/v1/%72eports",
    "/api/v1/./reports",
    "/./api/v1/reports",
    "/api/v1/x/../reports",
    "/api/v1/reports?x=1",
    "/api/v1/access-keys/",
    "/api/v1/docs/",
    "/api/v1/openapi.json/",
    "/api/v1/docs/../reports",
  ];
  for (const path of paths) {
    test(`GET ${path} without a key is neither served nor a server error`, async () => {
      const res = await t.app.http!.handle(new Request(`http://localhost${path}`));
      expect([401, 404]).toContain(res.status);
      const body = (await res.json()) as { data?: unknown; error: string };
      expect(body.data).toBeUndefined();
    });
  }
});

describe("public endpoints need no key", () => {
  for (const path of [
    "/api/v1/docs",
    "/api/v1/openapi.json",
    "/api/v1/openapi.json?x=1",
    "/docs-assets/swagger-ui-bundle.js",
    "/docs-assets/swagger-ui.css",
  ]) {
    test(`GET ${path} → 200 without a key`, async () => {
      const res = await t.request("GET", path, { key: null });
      expect(res.status).toBe(200);
    });
  }

  test("documentation also ignores a bad key", async () => {
    expect((await t.request("GET", "/api/v1/openapi.json", { key: "garbage" })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/docs", { key: unknownKey() })).status).toBe(200);
  });

  test("/healthz answers without a key (503 degraded: no renderer in the API tier)", async () => {
    for (const key of [null, "garbage"]) {
      const res = await t.request("GET", "/healthz", { key });
      expect(res.status).toBe(503);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ status: "degraded", renderer: "starting" });
      expect(typeof body.version).toBe("string");
      expect(typeof body.queued).toBe("number");
    }
  });

  test("/healthz counts queued reports", async () => {
    const before = ((await (await t.request("GET", "/healthz", { key: null })).json()) as { queued: number }).queued;
    await submit(t);
    const after = ((await (await t.request("GET", "/healthz", { key: null })).json()) as { queued: number }).queued;
    expect(after).toBe(before + 1);
  });

  test("/files/{id} is judged by its signature, never 401", async () => {
    const res = await t.request("GET", "/files/0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e", { key: null });
    await expectError(res, 403, "link_invalid");
  });
});

describe("deleted keys are rejected on the very next request", () => {
  async function newKey(name: string): Promise<{ value: string; id: string }> {
    const res = await t.request("POST", "/api/v1/access-keys", { body: { name } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { data: string; id: string };
    // Use it once so it is in the verified cache: deletion must evict it.
    expect((await t.request("GET", "/api/v1/reports", { key: body.data })).status).toBe(200);
    return { value: body.data, id: body.id };
  }

  test("deleted through the API by another key of the account", async () => {
    const k = await newKey("to-delete");
    const del = await t.request("DELETE", `/api/v1/access-keys/${k.id}`);
    expect(del.status).toBe(200);
    await expectUnauthorized(await t.request("GET", "/api/v1/reports", { key: k.value }));
    await expectUnauthorized(await t.request("POST", "/api/v1/generate-pdf-async", { key: k.value, body: RAW }));
  });

  test("a key deleting itself", async () => {
    const k = await newKey("self-delete");
    const del = await t.request("DELETE", `/api/v1/access-keys/${k.id}`, { key: k.value });
    expect(del.status).toBe(200);
    await expectUnauthorized(await t.request("GET", "/api/v1/access-keys", { key: k.value }));
  });

  test("deleted with keys.delete (the admin CLI path)", async () => {
    const k = await newKey("admin-delete");
    await t.app.services.keys.delete(k.id);
    await expectUnauthorized(await t.request("GET", "/api/v1/reports", { key: k.value }));
  });

  test("deleted straight from the database (another process, e.g. the CLI)", async () => {
    const k = await newKey("sql-delete");
    t.app.services.backend.db!.$client.run("DELETE FROM access_keys WHERE id = ?", [k.id]);
    await expectUnauthorized(await t.request("GET", "/api/v1/reports", { key: k.value }));
  });

  test("deleting one key leaves the others working", async () => {
    const a = await newKey("keep-a");
    const b = await newKey("drop-b");
    expect((await t.request("DELETE", `/api/v1/access-keys/${b.id}`, { key: a.value })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/reports", { key: a.value })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/reports")).status).toBe(200);
    await expectUnauthorized(await t.request("GET", "/api/v1/reports", { key: b.value }));
  });
});
