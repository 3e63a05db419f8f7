// The audit trail over real HTTP: each change to keys and secrets, and each dashboard sign-in, is
// recorded exactly once (retries with an Idempotency-Key and refused changes add nothing), with the
// acting key, the client address, the target and the time; pages, keys:manage, and retention.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ALL_SCOPES } from "../../src/app/modules";
import { mintKey, signIn } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";

type Event = {
  id: string;
  type: string;
  actor: string;
  actor_key_id: string | null;
  client_address: string | null;
  target: string | null;
  detail: Record<string, unknown> | null;
  created_at: string;
};

let t: TestApp;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  adminId = (await t.app.services.keys.list()).find((k) => k.name === "test")!.id;
});
afterAll(() => t.close());

async function allEvents(key?: string): Promise<Event[]> {
  const out: Event[] = [];
  let cursor: string | null = null;
  do {
    const res = await t.request("GET", `/api/v1/audit-events?limit=100${cursor ? `&cursor=${cursor}` : ""}`, { key });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: Event[]; next_cursor: string | null };
    out.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}
const ofType = async (type: string, target?: string) =>
  (await allEvents()).filter((e) => e.type === type && (!target || e.target === target));

describe("each event is written exactly once, with actor, address, target and time", () => {
  test("access_key.created by the API (an Idempotency-Key retry adds nothing) and by the CLI", async () => {
    const before = Date.now();
    const send = () =>
      t.request("POST", "/api/v1/access-keys", { body: { name: "audited" }, headers: { "idempotency-key": "audit-create-1" } });
    const first = (await (await send()).json()) as { id: string };
    expect((await send()).headers.get("idempotent-replayed")).toBe("true");
    const events = await ofType("access_key.created", first.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: "key", actor_key_id: adminId, client_address: "127.0.0.1", target: first.id });
    expect(events[0]!.detail).toMatchObject({
      name: "audited",
      scopes: ALL_SCOPES,
    });
    expect(Date.parse(events[0]!.created_at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(events[0]!.created_at)).toBeLessThanOrEqual(Date.now());

    const cli = await mintKey(t, { name: "from-cli" });
    const fromCli = await ofType("access_key.created", cli.id);
    expect(fromCli).toHaveLength(1);
    expect(fromCli[0]).toMatchObject({ actor: "cli", actor_key_id: null, client_address: null });
  });

  test("a refused change records nothing (escalation, unknown key, bad grace)", async () => {
    const count = (await allEvents()).length;
    const narrow = await mintKey(t, { scopes: ["keys:manage"] });
    expect(
      (await t.request("POST", "/api/v1/access-keys", { key: narrow.value, body: { name: "x", scopes: ["reports:write"] } })).status,
    ).toBe(403);
    expect((await t.request("POST", "/api/v1/access-keys/abcdefghijkm/rotate", { body: {} })).status).toBe(404);
    expect((await t.request("POST", `/api/v1/access-keys/${narrow.id}/rotate`, { body: { grace_seconds: -5 } })).status).toBe(422);
    expect((await t.request("DELETE", "/api/v1/access-keys/abcdefghijkm")).status).toBe(404);
    expect((await allEvents()).length).toBe(count + 1); // only narrow's own creation
  });

  test("access_key.rotated, access_key.updated, access_key.deleted (API and CLI)", async () => {
    const k = await mintKey(t, { name: "lifecycle" });
    expect((await t.request("POST", `/api/v1/access-keys/${k.id}/rotate`, { body: { grace_seconds: 30 } })).status).toBe(200);
    expect((await t.request("PATCH", `/api/v1/access-keys/${k.id}`, { body: { max_reports_per_day: 7 } })).status).toBe(200);
    expect((await t.request("DELETE", `/api/v1/access-keys/${k.id}`)).status).toBe(200);
    const rotated = await ofType("access_key.rotated", k.id);
    expect(rotated).toHaveLength(1);
    expect(rotated[0]).toMatchObject({ actor: "key", actor_key_id: adminId, detail: { grace_seconds: 30 } });
    expect(await ofType("access_key.updated", k.id)).toHaveLength(1);
    expect((await ofType("access_key.updated", k.id))[0]!.detail).toEqual({ max_reports_per_day: 7 });
    const deleted = await ofType("access_key.deleted", k.id);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ actor: "key", actor_key_id: adminId, client_address: "127.0.0.1" });

    const viaCli = await mintKey(t, { name: "cli-deleted" });
    await t.app.services.keys.delete(viaCli.id);
    expect(await ofType("access_key.deleted", viaCli.id)).toMatchObject([{ actor: "cli", actor_key_id: null }]);
  });

  test("webhook_secret.rotated (API and CLI)", async () => {
    const accountId = await t.app.services.keys.accountId("acme");
    const before = (await ofType("webhook_secret.rotated")).length;
    expect((await t.request("POST", "/api/v1/webhook-secret/rotate", { body: {} })).status).toBe(200);
    await t.app.services.webhookSecrets.rotate(accountId, { kind: "cli", accountId });
    const events = await ofType("webhook_secret.rotated");
    expect(events).toHaveLength(before + 2);
    expect(events[1]).toMatchObject({ actor: "key", actor_key_id: adminId, target: accountId });
    expect(events[0]).toMatchObject({ actor: "cli", target: accountId });
  });

  test("template.created (an Idempotency-Key retry adds nothing), template.version_created, template.deleted; refused saves add nothing", async () => {
    const create = () =>
      t.request("POST", "/api/v1/templates", {
        body: { name: "Audited", engine: "raw", html_template: "<p>1</p>" },
        headers: { "idempotency-key": "audit-template-1" },
      });
    const made = (await (await create()).json()) as { template_id: string };
    expect((await create()).headers.get("idempotent-replayed")).toBe("true");
    const id = made.template_id;
    const created = await ofType("template.created", id);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ actor: "key", actor_key_id: adminId, client_address: "127.0.0.1", target: id });
    expect(created[0]!.detail).toMatchObject({ name: "Audited", engine: "raw", version: 1 });

    expect((await t.request("POST", `/api/v1/templates/${id}/versions`, { body: { html_template: "<p>2</p>" } })).status).toBe(201);
    // A refused version (empty template) records nothing.
    expect((await t.request("POST", `/api/v1/templates/${id}/versions`, { body: { html_template: "" } })).status).toBe(422);
    const versions = await ofType("template.version_created", id);
    expect(versions).toHaveLength(1);
    expect(versions[0]!.detail).toEqual({ version: 2 });

    expect((await t.request("DELETE", `/api/v1/templates/${id}`)).status).toBe(200);
    expect((await t.request("DELETE", `/api/v1/templates/${id}`)).status).toBe(404);
    expect(await ofType("template.deleted", id)).toHaveLength(1);
  });

  test("dashboard.sign_in and dashboard.sign_in_failed (a wrong secret for a key of the account)", async () => {
    const k = await mintKey(t, { name: "signer" });
    expect((await signIn(t, k.value)).res.status).toBe(303);
    const wrong = `${k.value.slice(0, -4)}AAAA`;
    expect((await signIn(t, wrong)).res.status).toBe(401);
    expect((await signIn(t, "not a key at all")).res.status).toBe(401);
    const ok = await ofType("dashboard.sign_in", k.id);
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ actor: "key", actor_key_id: k.id, client_address: "127.0.0.1" });
    const failed = await ofType("dashboard.sign_in_failed", k.id);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actor: "anonymous", actor_key_id: null, client_address: "127.0.0.1" });
    // The unattributable failure is kept for the operator only: no account lists it.
    const orphan = t.app.services.backend.db!.$client.query("SELECT count(*) AS n FROM audit_events WHERE account_id IS NULL").get() as {
      n: number;
    };
    expect(orphan.n).toBe(1);
  });
});

describe("listing", () => {
  test("newest first, cursor pages without gaps or repeats; another account sees none of it", async () => {
    const all = await allEvents();
    const paged: Event[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.request("GET", `/api/v1/audit-events?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      const page = (await res.json()) as { data: Event[]; next_cursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
    const times = all.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const other = await mintKey(t, { account: "globex" });
    const theirs = await allEvents(other.value);
    expect(theirs.map((e) => e.target)).toEqual([other.id]); // only their own key's creation
  });

  test("a bad cursor is 400 invalid_cursor; limit out of range is 422", async () => {
    const bad = await t.request("GET", "/api/v1/audit-events?cursor=bm9wZQ");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("invalid_cursor");
    expect((await t.request("GET", "/api/v1/audit-events?limit=101")).status).toBe(422);
  });
});

test("the retention job deletes events older than --audit-retention (90 days by default) and keeps the rest", async () => {
  expect(t.app.config.auditRetention).toBe(90 * 86_400_000);
  const accountId = await t.app.services.keys.accountId("acme");
  const old = Date.now() - 91 * 86_400_000;
  await t.app.services.audit.record({ kind: "cli", accountId }, "access_key.created", "old-key", undefined, old);
  await t.app.services.audit.record(
    { kind: "cli", accountId },
    "access_key.created",
    "recent-key",
    undefined,
    Date.now() - 89 * 86_400_000,
  );
  expect((await ofType("access_key.created", "old-key")).length).toBe(1);
  await t.app.cleanup();
  expect(await ofType("access_key.created", "old-key")).toHaveLength(0);
  expect(await ofType("access_key.created", "recent-key")).toHaveLength(1);
});

test("behind a trusted proxy the client address is the first X-Forwarded-For hop, as the rate limiter reads it", async () => {
  const proxied = await createTestApp({ listen: true, config: { trustProxy: true } });
  try {
    const res = await proxied.request("POST", "/api/v1/access-keys", {
      body: { name: "via proxy" },
      headers: { "x-forwarded-for": "203.0.113.9, 10.0.0.1" },
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const list = (await (await proxied.request("GET", "/api/v1/audit-events")).json()) as { data: Event[] };
    expect(list.data.find((e) => e.target === id)!.client_address).toBe("203.0.113.9");
  } finally {
    await proxied.close();
  }
});
