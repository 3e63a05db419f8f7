// /api/v1/access-keys: creation (name rules, the value shown once), listing (never the value or a
// hash), deletion, and account isolation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { expectError, expectUnauthorized, expectValidation, keyParts, rawRequest, submit } from "../helpers/scenario";

let t: TestApp;
let otherKey: string;
beforeAll(async () => {
  t = await createTestApp();
  otherKey = (await t.app.services.keys.createForAccount("other", "k")).value;
});
afterAll(() => t.close());

type KeyListing = { id: string; name: string; created_at: string; last_used_at: string | null };

async function create(name: unknown, key?: string) {
  return t.request("POST", "/api/v1/access-keys", { body: { name }, key });
}
async function list(key?: string): Promise<KeyListing[]> {
  const res = await t.request("GET", "/api/v1/access-keys", { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: KeyListing[] }).data;
}

describe("POST /access-keys validates name", () => {
  const invalid: [string, Record<string, unknown>][] = [
    ["missing", {}],
    ["empty", { name: "" }],
    ["whitespace only", { name: "   \t " }],
    ["a number", { name: 42 }],
    ["null", { name: null }],
    ["an array", { name: ["a"] }],
    ["an object", { name: { first: "a" } }],
    ["a boolean", { name: true }],
    ["101 characters", { name: "n".repeat(101) }],
    ["a newline", { name: "line\nbreak" }],
    ["a NUL byte", { name: "nul\u0000byte" }],
    ["an escape character", { name: "esc\u001b[31m" }],
    ["DEL", { name: "del\u007f" }],
  ];
  for (const [label, body] of invalid) {
    test(`${label} → 422 validation_failed naming "name"`, async () => {
      const before = (await t.app.services.keys.list()).length;
      const res = await t.request("POST", "/api/v1/access-keys", { body });
      await expectValidation(res, "name");
      expect((await t.app.services.keys.list()).length).toBe(before);
    });
  }

  test("100 characters is accepted (boundary)", async () => {
    const res = await create("n".repeat(100));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { name: string }).name).toBe("n".repeat(100));
  });

  test("surrounding whitespace is trimmed", async () => {
    const res = await create("  billing-service  ");
    expect(res.status).toBe(201);
    expect(((await res.json()) as { name: string }).name).toBe("billing-service");
  });

  test("non-ASCII printable names are accepted", async () => {
    const res = await create("Überweisungen 📄");
    expect(res.status).toBe(201);
    expect(((await res.json()) as { name: string }).name).toBe("Überweisungen 📄");
  });

  test("a body that is not JSON → 400 invalid_json; no content type → 415", async () => {
    await expectError(
      await rawRequest(t, "POST", "/api/v1/access-keys", {
        headers: { "x-api-key": t.key, "content-type": "application/json" },
        body: "{name:",
      }),
      400,
      "invalid_json",
    );
    await expectError(
      await rawRequest(t, "POST", "/api/v1/access-keys", { headers: { "x-api-key": t.key }, body: '{"name":"x"}' }),
      415,
      "unsupported_media_type",
    );
  });
});

describe("POST /access-keys creates a working key", () => {
  test("201 {data, id, name, scopes, created_at, expires_at, max_reports_per_day}; data is rg_<id>_<secret>", async () => {
    const before = Date.now();
    const res = await create("reporting");
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(["created_at", "data", "expires_at", "id", "max_reports_per_day", "name", "scopes"]);
    expect(body.data).toStartWith("rg_");
    expect(body.data).toMatch(/^rg_[a-z2-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(keyParts(body.data!).id).toBe(body.id!);
    expect(body.name).toBe("reporting");
    const created = Date.parse(body.created_at!);
    expect(new Date(created).toISOString()).toBe(body.created_at!);
    expect(created).toBeGreaterThanOrEqual(before - 1);
    expect(created).toBeLessThanOrEqual(Date.now() + 1);
  });

  test("the new key authenticates", async () => {
    const { data } = (await (await create("works")).json()) as { data: string };
    expect((await t.request("GET", "/api/v1/reports", { key: data })).status).toBe(200);
  });

  test("every key value is unique", async () => {
    const values = new Set<string>();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const b = (await (await create(`u${i}`)).json()) as { data: string; id: string };
      values.add(b.data);
      ids.add(b.id);
    }
    expect(values.size).toBe(5);
    expect(ids.size).toBe(5);
  });

  test("only a hash is stored: the value is nowhere in the database", async () => {
    const { data, id } = (await (await create("hashed")).json()) as { data: string; id: string };
    const row = t.app.services.backend
      .db!.$client.query<{ secret_hash: string }, [string]>("SELECT secret_hash FROM access_keys WHERE id = ?")
      .get(id)!;
    expect(row.secret_hash).toStartWith("$argon2id$");
    expect(row.secret_hash).not.toContain(keyParts(data).secret);
    const dump = JSON.stringify(t.app.services.backend.db!.$client.query("SELECT * FROM access_keys").all());
    expect(dump).not.toContain(keyParts(data).secret);
  });

  test("keys created through the API belong to the caller's account", async () => {
    const reportId = await submit(t);
    const { data: newKey, id } = (await (await create("same-account")).json()) as { data: string; id: string };
    // The new key sees the caller's report and is listed with the caller's keys.
    expect((await t.request("GET", `/api/v1/reports/${reportId}`, { key: newKey })).status).toBe(200);
    expect((await list()).map((k) => k.id)).toContain(id);
    expect((await list(newKey)).map((k) => k.id)).toContain(keyParts(t.key).id);
    // ...and not the other account's.
    expect((await list(otherKey)).map((k) => k.id)).not.toContain(id);
    const owner = t.app.services.backend
      .db!.$client.query<{ name: string }, [string]>(
        "SELECT a.name FROM access_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ?",
      )
      .get(id);
    expect(owner?.name).toBe("acme");
  });

  test("a key created by account B belongs to B", async () => {
    const { data, id } = (await (await create("b-made", otherKey)).json()) as { data: string; id: string };
    expect((await list(otherKey)).map((k) => k.id)).toContain(id);
    expect((await list()).map((k) => k.id)).not.toContain(id);
    expect((await list(data)).map((k) => k.id)).toContain(keyParts(otherKey).id);
  });
});

describe("GET /access-keys", () => {
  test("lists id, name, scopes, created_at, expires_at, last_used_at, quota and rotation, nothing else, newest first", async () => {
    const { id: newest } = (await (await create("listing-newest")).json()) as { id: string };
    const keys = await list();
    for (const k of keys) {
      expect(Object.keys(k).sort()).toEqual([
        "created_at",
        "expires_at",
        "id",
        "last_used_at",
        "max_reports_per_day",
        "name",
        "rotated_at",
        "scopes",
      ]);
      expect(typeof k.id).toBe("string");
      expect(typeof k.name).toBe("string");
      expect(new Date(k.created_at).toISOString()).toBe(k.created_at);
      if (k.last_used_at !== null) expect(new Date(k.last_used_at).toISOString()).toBe(k.last_used_at);
    }
    expect(keys[0]!.id).toBe(newest);
    const times = keys.map((k) => Date.parse(k.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  test("never shows a key value, secret or hash", async () => {
    const created = (await (await create("quiet-one")).json()) as { data: string };
    await t.request("GET", "/api/v1/reports", { key: created.data });
    const text = await (await t.request("GET", "/api/v1/access-keys")).text();
    for (const forbidden of [created.data, keyParts(created.data).secret, t.key, keyParts(t.key).secret, "argon2", "rg_"]) {
      expect(text).not.toContain(forbidden);
    }
    const fields = new Set((JSON.parse(text) as { data: Record<string, unknown>[] }).data.flatMap((k) => Object.keys(k)));
    for (const f of fields) expect(f).not.toMatch(/secret|hash|value|data/i);
  });

  test("last_used_at is null until the key is used, then set", async () => {
    const { data, id } = (await (await create("fresh")).json()) as { data: string; id: string };
    expect((await list()).find((k) => k.id === id)!.last_used_at).toBeNull();
    const before = Date.now();
    await t.request("GET", "/api/v1/reports", { key: data });
    const used = (await list()).find((k) => k.id === id)!.last_used_at;
    expect(used).not.toBeNull();
    expect(Date.parse(used!)).toBeGreaterThanOrEqual(before - 1);
  });

  test("account B cannot see account A's keys and vice versa", async () => {
    const aIds = (await list()).map((k) => k.id);
    const bIds = (await list(otherKey)).map((k) => k.id);
    expect(aIds.length).toBeGreaterThan(0);
    expect(bIds.length).toBeGreaterThan(0);
    expect(aIds.filter((id) => bIds.includes(id))).toEqual([]);
    expect(aIds).toContain(keyParts(t.key).id);
    expect(bIds).toContain(keyParts(otherKey).id);
    expect(bIds).not.toContain(keyParts(t.key).id);
  });
});

describe("DELETE /access-keys/{accessKeyID}", () => {
  test("200 {data: {id, deleted: true}}; gone from the list; the key stops working", async () => {
    const { data, id } = (await (await create("doomed")).json()) as { data: string; id: string };
    const res = await t.request("DELETE", `/api/v1/access-keys/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { id, deleted: true } });
    expect((await list()).map((k) => k.id)).not.toContain(id);
    await expectUnauthorized(await t.request("GET", "/api/v1/reports", { key: data }));
  });

  test("deleting it again → 404 not_found", async () => {
    const { id } = (await (await create("twice")).json()) as { id: string };
    expect((await t.request("DELETE", `/api/v1/access-keys/${id}`)).status).toBe(200);
    await expectError(await t.request("DELETE", `/api/v1/access-keys/${id}`), 404, "not_found");
  });

  for (const id of ["abcdefghijkm", "nope", "rg_abcdefghijkm", "%27%20OR%201%3D1--"]) {
    test(`unknown id ${id} → 404 not_found`, async () => {
      const before = (await t.app.services.keys.list()).length;
      await expectError(await t.request("DELETE", `/api/v1/access-keys/${id}`), 404, "not_found");
      expect((await t.app.services.keys.list()).length).toBe(before);
    });
  }

  test("account B cannot delete account A's key (404), and A's key keeps working", async () => {
    const { data, id } = (await (await create("protected")).json()) as { data: string; id: string };
    await expectError(await t.request("DELETE", `/api/v1/access-keys/${id}`, { key: otherKey }), 404, "not_found");
    expect((await list()).map((k) => k.id)).toContain(id);
    expect((await t.request("GET", "/api/v1/reports", { key: data })).status).toBe(200);
  });

  test("the 404 for another account's key is the same as for an unknown key", async () => {
    const { id } = (await (await create("probe")).json()) as { id: string };
    const cross = (await (await t.request("DELETE", `/api/v1/access-keys/${id}`, { key: otherKey })).json()) as {
      error: string;
      message: string;
    };
    const unknown = (await (await t.request("DELETE", `/api/v1/access-keys/abcdefghijkm`, { key: otherKey })).json()) as {
      error: string;
      message: string;
    };
    expect(cross.error).toBe(unknown.error);
    expect(cross.message.replace(id, "ID")).toBe(unknown.message.replace("abcdefghijkm", "ID"));
  });
});
