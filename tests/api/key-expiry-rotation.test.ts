// Expiry and rotation over real HTTP: a key expiring 1-2 s ahead works, then is refused with exactly
// the interface's 401 (cached or not) and its dashboard session ends; a rotated key's old value works
// through its grace period only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectExactly401, mintKey, noRedirect, signIn } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(() => t.close());

const untilPast = async (at: number) => {
  while (Date.now() <= at) await Bun.sleep(Math.max(1, at - Date.now() + 5));
};

describe("expires_at", () => {
  test("works until the second it expires, then exactly 401 {error: unauthorized}; its dashboard session ends", async () => {
    const expiresAt = Date.now() + 1500;
    const k = await mintKey(t, { expiresAt: new Date(expiresAt).toISOString() });
    expect(k.expiresAt).toBe(expiresAt);
    // Several uses before the expiry: the value is then in the verified cache, and the session exists.
    for (let i = 0; i < 3; i++) expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200);
    const { res, session } = await signIn(t, k.value);
    expect(res.status).toBe(303);
    expect((await noRedirect(t, "GET", "/dashboard", { headers: { cookie: session! } })).status).toBe(200);
    expect(Date.now()).toBeLessThan(expiresAt); // the checks above ran before the expiry

    await untilPast(expiresAt);
    await expectExactly401(await t.request("GET", "/api/v1/reports", { key: k.value }), expect);
    await expectExactly401(await t.request("POST", "/api/v1/generate-pdf-async", { key: k.value, body: {} }), expect);
    const page = await noRedirect(t, "GET", "/dashboard", { headers: { cookie: session! } });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/dashboard/sign-in?notice=expired");
    // Signing in again with it fails too.
    expect((await signIn(t, k.value)).res.status).toBe(401);
  });

  test("an expired key is refused by every process: the first use after expiry, never cached", async () => {
    const expiresAt = Date.now() + 1000;
    const k = await mintKey(t, { expiresAt: new Date(expiresAt).toISOString() });
    await untilPast(expiresAt);
    await expectExactly401(await t.request("GET", "/api/v1/reports", { key: k.value }), expect);
  });

  test("GET /access-keys shows expires_at; a key without it never expires (null)", async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const res = await t.request("POST", "/api/v1/access-keys", { body: { name: "temp", expires_at: at } });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; expires_at: string };
    expect(created.expires_at).toBe(at);
    const list = (await (await t.request("GET", "/api/v1/access-keys")).json()) as { data: { id: string; expires_at: string | null }[] };
    expect(list.data.find((k) => k.id === created.id)!.expires_at).toBe(at);
    expect(list.data.some((k) => k.expires_at === null)).toBe(true);
  });

  for (const [what, value] of [
    ["in the past", new Date(Date.now() - 1000).toISOString()],
    ["not RFC 3339", "next tuesday"],
    ["without a time zone", "2030-01-01T00:00:00"],
  ] as const) {
    test(`expires_at ${what}: 422 naming the field`, async () => {
      const res = await t.request("POST", "/api/v1/access-keys", { body: { name: "bad", expires_at: value } });
      expect(res.status).toBe(422);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error).toBe("validation_failed");
      expect(body.message).toContain("expires_at");
    });
  }
});

describe("rotation", () => {
  const rotate = (id: string, body: unknown, key?: string) => t.request("POST", `/api/v1/access-keys/${id}/rotate`, { body, key });

  test("with a grace period: the same id, scopes and expiry; both values work inside the grace, the old one 401 after it", async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const k = await mintKey(t, { scopes: ["reports:read", "keys:manage"], expiresAt: expires });
    expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200); // cached from here on
    const res = await rotate(k.id, { grace_seconds: 2 }, k.value);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: string;
      key: { id: string; scopes: string[]; expires_at: string };
      previous_valid_until: string;
    };
    expect(body.data).toStartWith(`rg_${k.id}_`);
    expect(body.data).not.toBe(k.value);
    expect(body.key).toMatchObject({ id: k.id, scopes: ["reports:read", "keys:manage"], expires_at: expires });
    const until = Date.parse(body.previous_valid_until);
    expect(until - Date.now()).toBeGreaterThan(1000);

    expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/reports", { key: body.data })).status).toBe(200);
    await untilPast(until);
    await expectExactly401(await t.request("GET", "/api/v1/reports", { key: k.value }), expect);
    expect((await t.request("GET", "/api/v1/reports", { key: body.data })).status).toBe(200);
  });

  test("a rotation ends the key's dashboard sessions at once, whatever the grace", async () => {
    const k = await mintKey(t);
    const { session } = await signIn(t, k.value);
    expect((await noRedirect(t, "GET", "/dashboard", { headers: { cookie: session! } })).status).toBe(200);
    expect((await rotate(k.id, { grace_seconds: 600 })).status).toBe(200);
    const page = await noRedirect(t, "GET", "/dashboard", { headers: { cookie: session! } });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/dashboard/sign-in?notice=expired");
    expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200); // the API's grace holds
  });

  test("grace 0 (the default): the old value fails at once, even though it was cached", async () => {
    const k = await mintKey(t);
    expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200);
    const res = await rotate(k.id, {});
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: string };
    await expectExactly401(await t.request("GET", "/api/v1/reports", { key: k.value }), expect);
    expect((await t.request("GET", "/api/v1/reports", { key: data })).status).toBe(200);
  });

  test("an old value never verified before still works during the grace (first use after rotation)", async () => {
    const k = await mintKey(t);
    const res = await rotate(k.id, { grace_seconds: 60 });
    const { data } = (await res.json()) as { data: string };
    expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/reports", { key: data })).status).toBe(200);
  });

  test("a key older than check values (never used), rotated with a grace: its old value still works, by argon2 alone", async () => {
    const k = await mintKey(t);
    t.app.services.backend.db!.$client.run("UPDATE access_keys SET secret_check = NULL WHERE id = ?", [k.id]);
    const { data } = (await (await rotate(k.id, { grace_seconds: 60 })).json()) as { data: string };
    const row = t.app.services.backend
      .db!.$client.query("SELECT previous_secret_check AS p, secret_check AS c FROM access_keys WHERE id = ?")
      .get(k.id) as {
      p: string | null;
      c: string | null;
    };
    expect(row.p).toBeNull();
    expect(row.c).not.toBeNull();
    expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/reports", { key: data })).status).toBe(200);
    await expectExactly401(await t.request("GET", "/api/v1/reports", { key: `${k.value.slice(0, -3)}xyz` }), expect);
  });

  test("rotating again during a grace period ends the oldest value at once", async () => {
    const k = await mintKey(t);
    const first = (await (await rotate(k.id, { grace_seconds: 600 })).json()) as { data: string };
    const second = (await (await rotate(k.id, { grace_seconds: 600 })).json()) as { data: string };
    await expectExactly401(await t.request("GET", "/api/v1/reports", { key: k.value }), expect);
    expect((await t.request("GET", "/api/v1/reports", { key: first.data })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/reports", { key: second.data })).status).toBe(200);
  });

  for (const grace of [-1, 604_801, 1.5, "an hour"]) {
    test(`grace_seconds ${JSON.stringify(grace)}: 422`, async () => {
      const k = await mintKey(t);
      const res = await rotate(k.id, { grace_seconds: grace });
      expect(res.status).toBe(422);
      // Refused: the value still works.
      expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200);
    });
  }

  test("604800 s (7 days) is allowed; another account's key or an unknown id is 404", async () => {
    const k = await mintKey(t);
    expect((await rotate(k.id, { grace_seconds: 604_800 })).status).toBe(200);
    const other = await mintKey(t, { account: "globex" });
    expect((await rotate(other.id, {})).status).toBe(404);
    expect((await rotate("abcdefghijkm", {})).status).toBe(404);
    expect((await t.request("GET", "/api/v1/reports", { key: other.value })).status).toBe(200);
  });
});
