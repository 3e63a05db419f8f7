// Dashboard sessions on a real SQLite database: idle and absolute expiry, sign-out, key deletion
// ending sessions at once, and only a hash of the session id stored.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
const IDLE = 30 * 60_000;
const MAX_AGE = 12 * 3_600_000;

beforeAll(async () => {
  t = await createTestApp({ config: { sessionIdle: IDLE, sessionMaxAge: MAX_AGE } });
});
afterAll(() => t.close());

const principal = async () => (await t.app.services.keyAuth.authenticate(t.key))!;

test("a session is found by its id; the database holds only a hash of it", async () => {
  const { id, session } = await t.app.services.sessions.create(await principal());
  expect((await t.app.services.sessions.resolve(id))?.accountId).toBe(session.accountId);
  const rows = t.app.services.backend.db!.$client.query<{ id_hash: string }, []>("SELECT id_hash FROM dashboard_sessions").all();
  expect(rows.some((r) => r.id_hash === session.idHash)).toBe(true);
  expect(rows.some((r) => r.id_hash.includes(id))).toBe(false);
  expect(await t.app.services.sessions.resolve(id.slice(0, -1) + (id.endsWith("A") ? "B" : "A"))).toBeNull();
  expect(await t.app.services.sessions.resolve(undefined)).toBeNull();
});

test("idle expiry: activity keeps a session alive, silence past the idle time ends it", async () => {
  const t0 = Date.now();
  const { id } = await t.app.services.sessions.create(await principal(), undefined, t0);
  expect(await t.app.services.sessions.resolve(id, t0 + IDLE - 1000)).not.toBeNull();
  // That request moved last-seen forward: another idle period from there is still fine.
  expect(await t.app.services.sessions.resolve(id, t0 + 2 * IDLE - 2000)).not.toBeNull();
  expect(await t.app.services.sessions.resolve(id, t0 + 3 * IDLE)).toBeNull();
  // Gone for good, not only refused once.
  expect(await t.app.services.sessions.resolve(id, t0 + 2 * IDLE - 1500)).toBeNull();
});

test("absolute expiry: even a session in constant use ends after its maximum age", async () => {
  const t0 = Date.now();
  const { id } = await t.app.services.sessions.create(await principal(), undefined, t0);
  let at = t0;
  while (at < t0 + MAX_AGE - IDLE) {
    at += IDLE / 2;
    expect(await t.app.services.sessions.resolve(id, at)).not.toBeNull();
  }
  expect(await t.app.services.sessions.resolve(id, t0 + MAX_AGE)).toBeNull();
});

test("sign-out ends the session", async () => {
  const { id, session } = await t.app.services.sessions.create(await principal());
  await t.app.services.sessions.end(session);
  expect(await t.app.services.sessions.resolve(id)).toBeNull();
});

test("deleting a key ends its sessions at once, and only its own", async () => {
  const other = await t.app.services.keys.createForAccount("acme", "other");
  const p = (await t.app.services.keyAuth.authenticate(other.value))!;
  const doomed = await t.app.services.sessions.create(p);
  const kept = await t.app.services.sessions.create(await principal());
  await t.app.services.keys.delete(other.id);
  expect(await t.app.services.sessions.resolve(doomed.id)).toBeNull();
  expect(await t.app.services.sessions.resolve(kept.id)).not.toBeNull();
});

test("a key deleted by another process (the CLI writes the same row) ends its sessions too", async () => {
  const other = await t.app.services.keys.createForAccount("acme", "cli-deleted");
  const { id } = await t.app.services.sessions.create((await t.app.services.keyAuth.authenticate(other.value))!);
  t.app.services.backend.db!.$client.run("DELETE FROM access_keys WHERE id = ?", [other.id]);
  expect(await t.app.services.sessions.resolve(id)).toBeNull();
});

test("expired sessions are swept when new ones start", async () => {
  const t0 = Date.now() - MAX_AGE - 1000;
  await t.app.services.sessions.create(await principal(), undefined, t0);
  const count = () =>
    t.app.services.backend
      .db!.$client.query<{ n: number }, [number]>("SELECT count(*) AS n FROM dashboard_sessions WHERE created_at = ?")
      .get(t0)!.n;
  expect(count()).toBe(1);
  await t.app.services.sessions.create(await principal());
  expect(count()).toBe(0);
});

test("behind an https public URL the session cookie is Secure with the __Host- prefix, and Origin must be that URL", async () => {
  const origin = "https://reports.example.com";
  const h = await createTestApp({ config: { publicUrl: origin } });
  try {
    const form = await h.request("GET", "/dashboard/sign-in");
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signIn = form.headers.getSetCookie()[0]!;
    expect(signIn).toStartWith("__Host-rg_signin=");
    expect(signIn).toContain("; Secure");
    const post = (from: string) =>
      h.request("POST", "/dashboard/sign-in", {
        key: null,
        headers: {
          origin: from,
          "sec-fetch-site": "same-origin",
          cookie: signIn.split(";")[0]!,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ _csrf: token, key: h.key }).toString(),
      });
    expect((await post("http://reports.example.com")).status).toBe(403);
    const res = await post(origin);
    expect(res.status).toBe(303);
    const session = res.headers.getSetCookie().find((c) => c.startsWith("__Host-rg_session="))!;
    expect(session).toMatch(/^__Host-rg_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200; Secure$/);
  } finally {
    await h.close();
  }
});
