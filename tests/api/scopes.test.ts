// The scope table: every route of the running app has an access decision in its module's descriptor (src/app/modules.ts joins them)
// (a route added without one fails here), and every /api/v1 route is called over HTTP with a key
// holding each single scope: 403 forbidden (naming the missing scope) unless it is the route's scope.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Scope } from "../../src/access/scopes";
import { ALL_SCOPES, ROUTE_ACCESS } from "../../src/app/modules";
import { concrete, mintKey, noRedirect, signIn } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
const keyWith = new Map<Scope, string>();
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  for (const s of ALL_SCOPES) keyWith.set(s, (await mintKey(t, { scopes: [s], name: `only ${s}` })).value);
});
afterAll(() => t.close());

const liveRoutes = () => t.app.http.routes.map((r) => `${r.method} ${r.path}`);

test("every route of the app has an access decision, and every decision names a live route", () => {
  const live = liveRoutes();
  expect(live.length).toBeGreaterThan(30);
  const undeclared = live.filter((r) => !(r in ROUTE_ACCESS));
  expect(undeclared).toEqual([]);
  const gone = Object.keys(ROUTE_ACCESS).filter((r) => !live.includes(r));
  expect(gone).toEqual([]);
});

test("only documentation is public under /api/v1, and nothing outside /api/v1 takes a scope", () => {
  for (const [route, access] of Object.entries(ROUTE_ACCESS)) {
    const path = route.split(" ")[1]!;
    if (path.startsWith("/api/v1/") && access === "public") expect(["/api/v1/openapi.json", "/api/v1/docs"]).toContain(path);
    if (!path.startsWith("/api/v1/")) expect(["public", "dashboard"]).toContain(access);
    if (path.startsWith("/dashboard")) expect(access).toBe("dashboard");
  }
});

describe("every /api/v1 route × every scope", () => {
  const apiRoutes = Object.entries(ROUTE_ACCESS).filter(([r, a]) => r.split(" ")[1]!.startsWith("/api/v1/") && a !== "public");
  for (const [route, needed] of apiRoutes) {
    const [method, path] = route.split(" ") as [string, string];
    for (const scope of ALL_SCOPES) {
      test(`${route} with only ${scope}: ${scope === needed ? "allowed" : "403"}`, async () => {
        const res = await t.request(method, concrete(path), {
          key: keyWith.get(scope)!,
          body: method === "POST" || method === "PATCH" ? {} : undefined,
        });
        const body = (await res.json()) as { error?: string; message?: string; details?: { required_scope?: string } };
        if (scope === needed) {
          expect(res.status).not.toBe(401);
          expect(body.error).not.toBe("forbidden");
        } else {
          expect(res.status).toBe(403);
          expect(body.error).toBe("forbidden");
          expect(body.message).toContain(needed);
          expect(body.details?.required_scope).toBe(needed);
        }
      });
    }
  }
});

test("a key with every scope reaches every /api/v1 route", async () => {
  for (const [route, access] of Object.entries(ROUTE_ACCESS)) {
    const [method, path] = route.split(" ") as [string, string];
    if (!path.startsWith("/api/v1/") || access === "public") continue;
    const res = await t.request(method, concrete(path), { body: method === "POST" || method === "PATCH" ? {} : undefined });
    expect({ route, status: res.status }).not.toEqual({ route, status: 403 });
  }
});

test("the public /api/v1 routes answer without a key", async () => {
  for (const path of ["/api/v1/openapi.json", "/api/v1/docs"]) expect((await t.request("GET", path, { key: null })).status).toBe(200);
});

describe("granting scopes", () => {
  test("omitted scopes: exactly the creator's", async () => {
    const creator = await mintKey(t, { scopes: ["keys:manage", "reports:read"] });
    const res = await t.request("POST", "/api/v1/access-keys", { key: creator.value, body: { name: "child" } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { scopes: string[]; data: string };
    expect(body.scopes).toEqual(["reports:read", "keys:manage"]);
    // The child really holds only those: submitting is refused.
    const submit = await t.request("POST", "/api/v1/generate-pdf-async", {
      key: body.data,
      body: { engine: "raw", html_template: "<p>x</p>" },
    });
    expect(submit.status).toBe(403);
  });

  test("a narrower set is granted as asked", async () => {
    const res = await t.request("POST", "/api/v1/access-keys", { body: { name: "reader", scopes: ["reports:read"] } });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { scopes: string[] }).scopes).toEqual(["reports:read"]);
  });

  test("escalation is refused: 403 forbidden naming the scope the creator lacks, and no key is made", async () => {
    const creator = await mintKey(t, { scopes: ["keys:manage"], name: "manager" });
    const before = (await t.app.services.keys.list()).length;
    const res = await t.request("POST", "/api/v1/access-keys", {
      key: creator.value,
      body: { name: "escalated", scopes: ["keys:manage", "reports:write"] },
    });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: string; message: string; details: { missing_scopes: string[] } };
    expect(body.error).toBe("forbidden");
    expect(body.message).toContain("reports:write");
    expect(body.details.missing_scopes).toEqual(["reports:write"]);
    expect((await t.app.services.keys.list()).length).toBe(before);
  });

  test("an unknown scope is 422 with the list of valid ones", async () => {
    const res = await t.request("POST", "/api/v1/access-keys", { body: { name: "typo", scopes: ["reports:writ"] } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string; message: string; details: { valid: string[] }[] };
    expect(body.error).toBe("validation_failed");
    for (const s of ALL_SCOPES) expect(body.message).toContain(s);
    expect(body.details[0]!.valid).toEqual(ALL_SCOPES);
  });

  test("an empty scope list is 422", async () => {
    const res = await t.request("POST", "/api/v1/access-keys", { body: { name: "none", scopes: [] } });
    expect(res.status).toBe(422);
  });

  test("the admin CLI's keys hold every scope unless narrowed", async () => {
    expect((await mintKey(t)).scopes).toEqual(ALL_SCOPES);
    expect((await mintKey(t, { scopes: ["reports:read", "reports:write"] })).scopes).toEqual(["reports:write", "reports:read"]);
  });
});

describe("the dashboard holds a signed-in key to its scopes", () => {
  const form = (session: string, body: Record<string, string>) => ({
    headers: {
      cookie: session,
      origin: new URL(t.baseUrl).origin,
      "sec-fetch-site": "same-origin",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(body).toString(),
  });

  test("a reports:read key: reads reports, but cannot create keys, see the keys page or render in the playground", async () => {
    const reader = await mintKey(t, { scopes: ["reports:read"], name: "dash reader" });
    const { session } = await signIn(t, reader.value);
    const overview = await noRedirect(t, "GET", "/dashboard", { headers: { cookie: session! } });
    expect(overview.status).toBe(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await overview.text())![1]!;
    expect((await noRedirect(t, "GET", "/dashboard/reports", { headers: { cookie: session! } })).status).toBe(200);
    const keysPage = await noRedirect(t, "GET", "/dashboard/keys", { headers: { cookie: session! } });
    expect(keysPage.status).toBe(403);
    expect(await keysPage.text()).toContain("keys:manage");
    const before = (await t.app.services.keys.list()).length;
    const create = await noRedirect(t, "POST", "/dashboard/keys", form(session!, { _csrf: csrf, name: "sneaky" }));
    expect(create.status).toBe(403);
    expect((await t.app.services.keys.list()).length).toBe(before);
    const render = await noRedirect(
      t,
      "POST",
      "/dashboard/playground",
      form(session!, { _csrf: csrf, engine: "raw", template: "<p>x</p>" }),
    );
    expect(render.status).toBe(403);
    expect(await render.text()).toContain("reports:write");
    // Deleting a report needs reports:write: its confirmation page as much as the delete itself.
    const queued = await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: "<p>x</p>" } });
    const { report_id } = (await queued.json()) as { report_id: string };
    const confirm = await noRedirect(t, "GET", `/dashboard/reports/${report_id}/delete`, { headers: { cookie: session! } });
    expect(confirm.status).toBe(403);
    expect(await confirm.text()).toContain("reports:write");
    // Nor does its list offer a Delete link for it, while a key with reports:write sees one.
    const deleteLink = `/dashboard/reports/${report_id}/delete`;
    const readerList = await noRedirect(t, "GET", "/dashboard/reports", { headers: { cookie: session! } });
    const readerText = await readerList.text();
    expect(readerText).toContain(report_id.slice(0, 8));
    expect(readerText).not.toContain(deleteLink);
    const writer = await signIn(t, (await mintKey(t, { scopes: ["reports:read", "reports:write"], name: "dash writer" })).value);
    expect(await (await noRedirect(t, "GET", "/dashboard/reports", { headers: { cookie: writer.session! } })).text()).toContain(deleteLink);
  });

  test("a keys:manage key creates keys from the dashboard with at most its own scopes", async () => {
    const manager = await mintKey(t, { scopes: ["keys:manage"], name: "dash manager" });
    const { session } = await signIn(t, manager.value);
    const page = await noRedirect(t, "GET", "/dashboard/keys", { headers: { cookie: session! } });
    expect(page.status).toBe(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const create = await noRedirect(t, "POST", "/dashboard/keys", form(session!, { _csrf: csrf, name: "from dashboard" }));
    expect(create.status).toBe(201);
    const made = (await t.app.services.keys.list()).find((k) => k.name === "from dashboard")!;
    expect(made.scopes).toBe("keys:manage");
  });
});
