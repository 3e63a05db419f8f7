// A key manages only keys within its own scopes, and an Idempotency-Key's stored answer goes only to the
// access key that made it. Every route that acts on another key or on a secret is walked with a narrow
// key and a broad one: rotating a broader key would hand over its value (an escalation), and deleting or
// re-limiting it would act with powers the caller lacks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Scope } from "../../src/access/scopes";
import { ALL_SCOPES } from "../../src/app/modules";
import { mintKey, noRedirect, signIn } from "../helpers/access";
import { createTestApp, type TestApp, waitForReport } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  // Rendering on: the merge's parts must have succeeded.
  t = await createTestApp({ listen: true, render: true });
});
afterAll(() => t.close());

const NARROW: Scope[] = ["keys:manage", "reports:read"];

/** The call each key-management route makes on `id`, with the body it needs. */
const ACTIONS = [
  { name: "rotate", method: "POST", path: (id: string) => `/api/v1/access-keys/${id}/rotate`, body: {} },
  { name: "change the quota", method: "PATCH", path: (id: string) => `/api/v1/access-keys/${id}`, body: { max_reports_per_day: 1 } },
  { name: "delete", method: "DELETE", path: (id: string) => `/api/v1/access-keys/${id}`, body: undefined },
] as const;

describe("rotate, change and delete: a narrow key against a broader key", () => {
  for (const a of ACTIONS) {
    test(`${a.name}: 403 forbidden naming the scopes it lacks, and the broader key is untouched`, async () => {
      const narrow = await mintKey(t, { scopes: NARROW, name: "narrow" });
      const broad = await mintKey(t, { name: "broad" });
      const res = await t.request(a.method, a.path(broad.id), { key: narrow.value, body: a.body });
      expect(res.status).toBe(403);
      const body = (await res.json()) as { error: string; message: string; details: { missing_scopes: string[] } };
      expect(body.error).toBe("forbidden");
      expect(body.details.missing_scopes).toEqual(ALL_SCOPES.filter((s) => !NARROW.includes(s)));
      expect(body.message).toContain("reports:write");
      // Nothing happened: the broad key's value still submits, its quota is unset, it still exists.
      const submit = await t.request("POST", "/api/v1/generate-pdf-async", {
        key: broad.value,
        body: { engine: "raw", html_template: "<p>x</p>" },
      });
      expect(submit.status).toBe(202);
      const row = (await t.app.services.keys.list()).find((k) => k.id === broad.id)!;
      expect(row.maxReportsPerDay).toBeNull();
      expect(row.rotatedAt).toBeNull();
    });

    test(`${a.name}: allowed on a key within the caller's scopes, and on the caller itself`, async () => {
      const narrow = await mintKey(t, { scopes: NARROW, name: "narrow" });
      const narrower = await mintKey(t, { scopes: ["reports:read"], name: "narrower" });
      expect((await t.request(a.method, a.path(narrower.id), { key: narrow.value, body: a.body })).status).toBe(200);
      const self = await mintKey(t, { scopes: NARROW, name: "self" });
      expect((await t.request(a.method, a.path(self.id), { key: self.value, body: a.body })).status).toBe(200);
    });

    test(`${a.name}: a key of another account is 404, whatever its scopes`, async () => {
      const other = await mintKey(t, { account: "globex", scopes: ["reports:read"], name: "theirs" });
      const res = await t.request(a.method, a.path(other.id), { body: a.body });
      expect(res.status).toBe(404);
    });
  }

  test("the escalation as found: the value a rotation would hand over never comes back", async () => {
    const narrow = await mintKey(t, { scopes: NARROW, name: "narrow" });
    const broad = await mintKey(t, { name: "broad" });
    const res = await t.request("POST", `/api/v1/access-keys/${broad.id}/rotate`, { key: narrow.value, body: {} });
    const text = await res.text();
    expect(res.status).toBe(403);
    expect(text).not.toContain(`rg_${broad.id}_`);
  });
});

describe("the webhook secret grants no scope on the API: any keys:manage key reads and rotates it", () => {
  for (const [method, path, body] of [
    ["GET", "/api/v1/webhook-secret", undefined],
    ["POST", "/api/v1/webhook-secret/rotate", {}],
  ] as const) {
    test(`${method} ${path}: a keys:manage-only key 200, a key without keys:manage 403`, async () => {
      const manager = await mintKey(t, { scopes: ["keys:manage"], name: "manager" });
      expect((await t.request(method, path, { key: manager.value, body })).status).toBe(200);
      const others = await mintKey(t, { scopes: ALL_SCOPES.filter((s) => s !== "keys:manage"), name: "no manage" });
      expect((await t.request(method, path, { key: others.value, body })).status).toBe(403);
    });
  }
});

test("the dashboard holds a session to the same rule: deleting a broader key is a 403 page, and the key stays", async () => {
  const narrow = await mintKey(t, { scopes: NARROW, name: "dash narrow" });
  const broad = await mintKey(t, { name: "dash broad" });
  const { session } = await signIn(t, narrow.value);
  const page = await noRedirect(t, "GET", "/dashboard/keys", { headers: { cookie: session! } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const res = await noRedirect(t, "POST", `/dashboard/keys/${broad.id}/delete`, {
    headers: {
      cookie: session!,
      origin: new URL(t.baseUrl).origin,
      "sec-fetch-site": "same-origin",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ _csrf: csrf }).toString(),
  });
  expect(res.status).toBe(403);
  expect(await res.text()).toContain("reports:write");
  expect((await t.app.services.keys.list()).some((k) => k.id === broad.id)).toBe(true);
});

describe("an Idempotency-Key's record belongs to the access key that made it", () => {
  test("POST /access-keys: another key of the account with the same Idempotency-Key gets a fresh key, never the stored one", async () => {
    const narrow = await mintKey(t, { scopes: NARROW, name: "narrow" });
    const headers = { "idempotency-key": "escalate-k1" };
    const first = await t.request("POST", "/api/v1/access-keys", { body: { name: "made by A" }, headers });
    expect(first.status).toBe(201);
    const made = (await first.json()) as { data: string; id: string; scopes: string[] };
    const second = await t.request("POST", "/api/v1/access-keys", { key: narrow.value, body: { name: "made by A" }, headers });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    const fresh = (await second.json()) as { data: string; id: string; scopes: string[] };
    expect(fresh.id).not.toBe(made.id);
    expect(fresh.data).not.toBe(made.data);
    expect(fresh.scopes).toEqual(["reports:read", "keys:manage"]);
    // The first key still gets its own replay.
    const again = await t.request("POST", "/api/v1/access-keys", { body: { name: "made by A" }, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { data: string }).data).toBe(made.data);
  });

  // Every other route that takes Idempotency-Key: the second key's request runs on its own.
  for (const route of [
    { path: "/api/v1/generate-pdf-async", body: { engine: "raw", html_template: "<p>idem</p>" }, id: "report_id" },
    { path: "/api/v1/templates", body: { name: "idem", engine: "raw", html_template: "<p>idem</p>" }, id: "template_id" },
  ]) {
    test(`POST ${route.path}: a second key with the same Idempotency-Key is a fresh request`, async () => {
      const second = await mintKey(t, { name: "second" });
      const headers = { "idempotency-key": `idem-${route.path}` };
      const a = await t.request("POST", route.path, { body: route.body, headers });
      const b = await t.request("POST", route.path, { key: second.value, body: route.body, headers });
      expect(a.status).toBeLessThan(300);
      expect(b.status).toBe(a.status);
      expect(b.headers.get("idempotent-replayed")).toBeNull();
      const idOf = async (r: Response) => ((await r.json()) as Record<string, string>)[route.id];
      expect(await idOf(b)).not.toBe(await idOf(a));
      const replay = await t.request("POST", route.path, { key: second.value, body: route.body, headers });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
    });
  }

  test("POST /api/v1/reports/merge: a second key with the same Idempotency-Key is a fresh request", async () => {
    const second = await mintKey(t, { name: "second merge" });
    const submit = async () => {
      const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: "<p>part</p>" } });
      const id = ((await res.json()) as { report_id: string }).report_id;
      expect((await waitForReport(t, id)).status).toBe("succeeded");
      return id;
    };
    const body = { report_ids: [await submit(), await submit()] };
    const headers = { "idempotency-key": "idem-merge" };
    const a = await t.request("POST", "/api/v1/reports/merge", { body, headers });
    const b = await t.request("POST", "/api/v1/reports/merge", { key: second.value, body, headers });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    const idOf = async (r: Response) => ((await r.json()) as { report_id: string }).report_id;
    expect(await idOf(b)).not.toBe(await idOf(a));
  });
});
