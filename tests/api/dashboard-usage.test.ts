// The dashboard's usage views in-process, on a real SQLite file: the Overview chart's numbers, each
// key's usage on Access Keys, and the audit page's access rule (keys:manage, as the API's). In real
// Chromium with axe-core: tests/e2e/dashboard-usage.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { fail, submit, succeed } from "../helpers/scenario";

let t: TestApp;
let reader: string;
const today = new Date().toISOString().slice(0, 10);

/** A dashboard session of the key's, as signing in makes one; its Cookie header. */
async function sessionFor(key: string): Promise<string> {
  const { id } = await t.app.services.sessions.create((await t.app.services.keyAuth.authenticate(key))!);
  return `rg_session=${id}`;
}

async function page(path: string, key = t.key): Promise<{ status: number; body: string }> {
  const res = await t.app.http.handle(new Request(`http://localhost${path}`, { headers: { cookie: await sessionFor(key) } }));
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  t = await createTestApp();
  const created = await t.request("POST", "/api/v1/access-keys", { body: { name: "reader", scopes: ["reports:read"] } });
  expect(created.status).toBe(201);
  reader = ((await created.json()) as { data: string }).data;
  const ids = [await submit(t), await submit(t), await submit(t)];
  await succeed(t, ids[0]!, { pageCount: 4 });
  await succeed(t, ids[1]!, { pageCount: 3 });
  await fail(t, ids[2]!, "template_error", "boom");
});
afterAll(() => t.close());

describe("dashboard usage", () => {
  test("Overview: today's bars and table row carry the day's numbers; the text alternative sums the 30 days", async () => {
    const { status, body } = await page("/dashboard");
    expect(status).toBe(200);
    const day = new RegExp(`<g data-date="${today}">[\\s\\S]*?</g>`).exec(body)?.[0] ?? "";
    expect(day).toContain('data-series="succeeded" data-value="2"');
    expect(day).toContain('data-series="failed" data-value="1"');
    expect(day).not.toContain('data-series="pending"');
    expect(body).toContain("3 reports submitted, 2 succeeded, 1 failed, 7 pages.");
    expect(body).toMatch(
      new RegExp(`<th scope="row">${today}</th><td class="num">2</td><td class="num">1</td><td class="num">0</td><td class="num">7</td>`),
    );
    expect((body.match(/<g data-date=/g) ?? []).length).toBe(60); // two charts of 30 days
  });

  test("Access Keys: each key's scopes and its usage over the last 30 days", async () => {
    const { body } = await page("/dashboard/keys");
    const row = (name: string) => new RegExp(`<strong>${name}</strong>[\\s\\S]*?</tr>`).exec(body)?.[0] ?? "";
    expect(row("test")).toContain("<strong>3 reports</strong> · 7 pages");
    expect(row("test")).toContain("2 succeeded, 1 failed");
    expect(row("reader")).toContain('<li class="mono">reports:read</li>');
    expect(row("reader")).toContain("No reports");
  });

  test("Audit: listed for a key with keys:manage; a key without it gets 403 naming the scope", async () => {
    const ok = await page("/dashboard/audit");
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("Key created");
    expect(ok.body).toMatch(/reader <span class="mono sub">[a-z2-9]{12}<\/span>/);
    const refused = await page("/dashboard/audit", reader);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain("keys:manage");
    // An unissued cursor is a 400 page saying what to pass.
    const bad = await page("/dashboard/audit?cursor=bm9wZQ");
    expect(bad.status).toBe(400);
  });
});
