// Schedules through the API: create, read, change, pause/resume, delete, with their audit events; another
// account's schedule is 404; bad cron expressions and time zones are 422 naming the fix; ticks (cron with
// seconds, the test-only way to make them fast) queue reports from a stored template, with inline data or
// data fetched from a real loopback server; failed runs are in the history and send a signed
// schedule.run_failed event to a real receiver.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { createDestination } from "../helpers/delivery";
import { startReceiver, verifyStandardWebhook } from "../helpers/webhook-receiver";

let t: TestApp;
let other: string;
let data: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  t = await createTestApp({ config: { webhookAllowHosts: ["127.0.0.1"], webhookRetryBase: 100, dataMaxSize: 4096 } });
  other = (await t.app.services.keys.createForAccount("globex", "other")).value;
  data = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/customer.json") return Response.json({ name: "Ada" });
      if (path === "/big.json") return Response.json({ name: "x".repeat(10_000) });
      if (path === "/text") return new Response("<html>not json</html>", { headers: { "content-type": "text/html" } });
      return new Response("no", { status: 404 });
    },
  });
});
afterAll(async () => {
  data.stop(true);
  await t.close();
});

async function template(key?: string): Promise<string> {
  const r = await t.request("POST", "/api/v1/templates", {
    key,
    body: { name: `T${Math.random()}`, engine: "ejs", html_template: "<p>Hello <%= name %></p>" },
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as any).template_id;
}

async function create(body: Record<string, unknown>, key?: string) {
  const r = await t.request("POST", "/api/v1/schedules", { key, body });
  return { status: r.status, body: (await r.json()) as any };
}

async function runs(id: string, key?: string): Promise<any[]> {
  const r = await t.request("GET", `/api/v1/schedules/${id}/runs?limit=100`, { key });
  expect(r.status).toBe(200);
  return ((await r.json()) as any).data;
}

async function waitForRuns(id: string, n: number, done: (r: any) => boolean = (r) => r.status !== "running", timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const rs = (await runs(id)).filter(done);
    if (rs.length >= n) return rs;
    if (Date.now() > end) throw new Error(`schedule ${id} has ${rs.length} of ${n} finished runs after ${timeoutMs} ms`);
    await Bun.sleep(100);
  }
}

const auditTypes = async () =>
  ((await (await t.request("GET", "/api/v1/audit-events?limit=100")).json()) as any).data.map((e: any) => e.type) as string[];

describe("schedules CRUD", () => {
  test("create, read, list, pause, resume, change, delete: each change audited; another account sees 404", async () => {
    const tpl = await template();
    const c = await create({ name: "daily", cron: "0 6 * * *", timezone: "europe/berlin", template_id: tpl, data: { name: "Ada" } });
    expect(c.status).toBe(201);
    const s = c.body.data;
    expect(s).toMatchObject({
      name: "daily",
      cron: "0 6 * * *",
      timezone: "Europe/Berlin",
      catch_up: "none",
      paused: false,
      data: { name: "Ada" },
    });
    // 06:00 in Berlin is 04:00 or 05:00 UTC, whatever the season.
    expect(["04", "05"]).toContain(new Date(s.next_run_at).toISOString().slice(11, 13));
    expect((await (await t.request("GET", `/api/v1/schedules/${s.id}`)).json()).data.id).toBe(s.id);
    expect(((await (await t.request("GET", "/api/v1/schedules")).json()) as any).data.map((x: any) => x.id)).toContain(s.id);

    for (const [method, path] of [
      ["GET", `/api/v1/schedules/${s.id}`],
      ["PATCH", `/api/v1/schedules/${s.id}`],
      ["DELETE", `/api/v1/schedules/${s.id}`],
      ["GET", `/api/v1/schedules/${s.id}/runs`],
    ] as const) {
      const r = await t.request(method, path, { key: other, body: method === "PATCH" ? { paused: true } : undefined });
      expect(r.status).toBe(404);
    }
    expect(((await (await t.request("GET", "/api/v1/schedules", { key: other })).json()) as any).data).toEqual([]);

    const paused = await t.request("PATCH", `/api/v1/schedules/${s.id}`, { body: { paused: true } });
    expect(paused.status).toBe(200);
    expect(((await paused.json()) as any).data).toMatchObject({ paused: true, next_run_at: null });
    const resumed = ((await (await t.request("PATCH", `/api/v1/schedules/${s.id}`, { body: { paused: false } })).json()) as any).data;
    expect(resumed.paused).toBe(false);
    expect(resumed.next_run_at).not.toBeNull();
    const changed = await t.request("PATCH", `/api/v1/schedules/${s.id}`, {
      body: { cron: "30 7 * * 1-5", timezone: "UTC", name: "weekdays" },
    });
    expect(((await changed.json()) as any).data).toMatchObject({ cron: "30 7 * * 1-5", timezone: "UTC", name: "weekdays" });
    const del = await t.request("DELETE", `/api/v1/schedules/${s.id}`);
    expect(del.status).toBe(200);
    expect((await t.request("GET", `/api/v1/schedules/${s.id}`)).status).toBe(404);
    expect((await t.request("DELETE", `/api/v1/schedules/${s.id}`)).status).toBe(404);

    const types = await auditTypes();
    for (const type of ["schedule.created", "schedule.paused", "schedule.resumed", "schedule.updated", "schedule.deleted"])
      expect(types).toContain(type);
  });

  test("a bad cron expression or time zone is 422 naming the field and how to write it", async () => {
    const tpl = await template();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ cron: "61 * * * *" }, "cron", /minute.*write five fields/s],
      [{ cron: "every day" }, "cron", /not a cron expression.*"0 6 \* \* \*"/s],
      [{ cron: "0 0 31 2 *" }, "cron", /never fires/],
      [{ cron: "0 0 * * * * 2030" }, "cron", /year field/],
      [{ cron: "0 6 * * *", timezone: "Mars/Olympus" }, "timezone", /not a time zone.*IANA time zone name such as "Europe\/Berlin"/s],
      [{ cron: "0 6 * * *", timezone: "+02:00" }, "timezone", /offset/],
    ];
    for (const [body, field, message] of cases) {
      const r = await create({ name: "x", template_id: tpl, data: { name: "A" }, ...body });
      expect(r.status).toBe(422);
      expect(r.body.error).toBe("validation_failed");
      expect(r.body.message).toMatch(message);
      expect(r.body.details[0].field).toBe(field);
    }
  });

  test("unknown or another account's template is 404; data and data_url together, or a refused data_url, are 422", async () => {
    const mine = await template();
    const theirs = await template(other);
    expect((await create({ name: "x", cron: "0 6 * * *", template_id: theirs, data: {} })).status).toBe(404);
    expect((await create({ name: "x", cron: "0 6 * * *", template_id: crypto.randomUUID() })).status).toBe(404);
    const both = await create({
      name: "x",
      cron: "0 6 * * *",
      template_id: mine,
      data: { name: "A" },
      data_url: "https://example.com/a.json",
    });
    expect(both.status).toBe(422);
    const refused = await create({ name: "x", cron: "0 6 * * *", template_id: mine, data_url: "http://10.0.0.1/data.json" });
    expect(refused.status).toBe(422);
    expect(refused.body.details[0]).toMatchObject({ field: "data_url" });
    const deliver = await create({ name: "x", cron: "0 6 * * *", template_id: mine, data: { name: "A" }, deliver: [{ path: "a.pdf" }] });
    expect(deliver.status).toBe(422);
  });
});

describe("ticks", () => {
  test("each tick queues one report from the stored template, with the schedule's data, options and deliver", async () => {
    const tpl = await template();
    // An e-mail destination (no SMTP server here: the deliveries wait for a PDF this app does not print).
    const buyers = await createDestination(t, { name: "buyers", type: "email", email: { to: ["ap@buyer.example"] } });
    const s = (
      await create({
        name: "every second",
        cron: "* * * * * *",
        template_id: tpl,
        data: { name: "Ada" },
        options: { format: "A5" },
        deliver: [{ destination_id: buyers, subject: "Statement {report_id}" }],
      })
    ).body.data;
    const done = await waitForRuns(s.id, 2);
    await t.request("PATCH", `/api/v1/schedules/${s.id}`, { body: { paused: true } });
    for (const r of done) {
      expect(r).toMatchObject({ status: "submitted", error: null, caught_up: false });
      const report = ((await (await t.request("GET", `/api/v1/reports/${r.report_id}`)).json()) as any).data;
      expect(report).toMatchObject({ template_id: tpl, template_version: 1 });
      // The run shows its report's deliveries, as the report does.
      expect(r.deliveries).toEqual(report.deliveries);
      expect(r.deliveries).toMatchObject([{ destination_id: buyers, status: "pending", attempts: 0 }]);
    }
    const all = await runs(s.id);
    expect(new Set(all.map((r) => r.scheduled_for)).size).toBe(all.length);
    // Newest first.
    expect(all.map((r) => r.scheduled_for)).toEqual([...all.map((r) => r.scheduled_for)].sort().reverse());
    const stored = await t.app.services.backend.sql.get<{ options: string }>("SELECT options FROM reports WHERE id = $1", [
      done[0].report_id,
    ]);
    expect(JSON.parse(stored!.options)).toMatchObject({ format: "A5" });
  });

  test("data_url is fetched as JSON at each run; an oversize, non-JSON or failing answer fails the run, saying why", async () => {
    const tpl = await template();
    const base = `http://127.0.0.1:${data.port}`;
    const ok = (await create({ name: "url", cron: "* * * * * *", template_id: tpl, data_url: `${base}/customer.json` })).body.data;
    const big = (await create({ name: "big", cron: "* * * * * *", template_id: tpl, data_url: `${base}/big.json` })).body.data;
    const text = (await create({ name: "text", cron: "* * * * * *", template_id: tpl, data_url: `${base}/text` })).body.data;
    const gone = (await create({ name: "404", cron: "* * * * * *", template_id: tpl, data_url: `${base}/missing` })).body.data;
    const [r] = await waitForRuns(ok.id, 1);
    const [b] = await waitForRuns(big.id, 1);
    const [x] = await waitForRuns(text.id, 1);
    const [g] = await waitForRuns(gone.id, 1);
    for (const s of [ok, big, text, gone]) await t.request("PATCH", `/api/v1/schedules/${s.id}`, { body: { paused: true } });
    expect(r.status).toBe("submitted");
    const stored = await t.app.services.backend.sql.get<{ data: string }>("SELECT data FROM reports WHERE id = $1", [r.report_id]);
    expect(JSON.parse(stored!.data)).toEqual({ name: "Ada" });
    expect(b).toMatchObject({ status: "failed", report_id: null });
    expect(b.error).toMatch(/larger than 4096 bytes/);
    expect(x.error).toMatch(/did not answer JSON/);
    expect(g.error).toMatch(/answered HTTP 404/);
  });

  test("a failed run is in the history and sends a signed schedule.run_failed event to the schedule's webhook", async () => {
    const receiver = startReceiver();
    try {
      const tpl = await template();
      const s = (
        await create({ name: "doomed", cron: "* * * * * *", template_id: tpl, data: { name: "A" }, webhook: { url: receiver.url } })
      ).body.data;
      // The template goes: the next tick can queue no report.
      expect((await t.request("DELETE", `/api/v1/templates/${tpl}`)).status).toBe(200);
      const [failed] = await waitForRuns(s.id, 1, (r) => r.status === "failed");
      await t.request("PATCH", `/api/v1/schedules/${s.id}`, { body: { paused: true } });
      expect(failed.error).toMatch(/^not_found: template .* does not exist/);
      const [got] = await receiver.waitFor(1);
      const secret = ((await (await t.request("GET", "/api/v1/webhook-secret")).json()) as any).data.secret;
      const event = verifyStandardWebhook(secret, got!.headers, got!.body);
      expect(event.type).toBe("schedule.run_failed");
      expect(event.data).toMatchObject({ schedule_id: s.id, schedule_name: "doomed", error: failed.error });
      expect(got!.headers["webhook-id"]).toBe(`msg_${event.data.run_id}`);
      const end = Date.now() + 10_000;
      while ((await runs(s.id)).find((r) => r.id === event.data.run_id)?.event?.status !== "delivered") {
        if (Date.now() > end) throw new Error("the event was not recorded as delivered");
        await Bun.sleep(50);
      }
    } finally {
      receiver.stop();
    }
  });
});

describe("history", () => {
  test("runs older than 90 days leave the history; newer ones stay", async () => {
    const tpl = await template();
    const s = (await create({ name: "old", cron: "0 6 * * *", template_id: tpl, data: { name: "A" }, paused: true })).body.data;
    const sql = t.app.services.backend.sql;
    const accountId = await t.app.services.keys.accountId("acme");
    const now = Date.now();
    for (const [id, age] of [
      [crypto.randomUUID(), 91],
      [crypto.randomUUID(), 89],
    ] as const)
      await sql.run(
        "INSERT INTO schedule_runs (id, schedule_id, account_id, scheduled_for, status, error, created_at) VALUES ($1, $2, $3, $4, 'failed', 'x', $4)",
        [id, s.id, accountId, now - age * 86_400_000],
      );
    expect((await runs(s.id)).length).toBe(2);
    // A look well after the last one: its periodic clean-up runs.
    await t.app.services.scheduleTicker.look(now + 120_000);
    const left = await runs(s.id);
    expect(left.length).toBe(1);
    expect(Date.parse(left[0].scheduled_for)).toBe(now - 89 * 86_400_000);
  });
});

describe("the creating key", () => {
  test("its reports record it, and its daily quota holds: past it, runs fail with quota_exceeded", async () => {
    const made = await t.request("POST", "/api/v1/access-keys", {
      body: { name: "scheduler", scopes: ["schedules:manage", "templates:write", "reports:read"], max_reports_per_day: 1 },
    });
    expect(made.status).toBe(201);
    const { id: keyId, data: key } = (await made.json()) as any;
    const tpl = await template(key);
    const s = (await create({ name: "quota", cron: "* * * * * *", template_id: tpl, data: { name: "A" } }, key)).body.data;
    const end = Date.now() + 20_000;
    let rs: any[] = [];
    while (!rs.some((r) => r.status === "failed") && Date.now() < end) {
      await Bun.sleep(200);
      rs = await runs(s.id, key);
    }
    await t.request("PATCH", `/api/v1/schedules/${s.id}`, { key, body: { paused: true } });
    const submitted = rs.filter((r) => r.status === "submitted");
    expect(submitted.length).toBe(1);
    expect(rs.find((r) => r.status === "failed").error).toMatch(/^quota_exceeded: /);
    const report = await t.app.services.backend.sql.get<{ key_id: string }>("SELECT key_id FROM reports WHERE id = $1", [
      submitted[0].report_id,
    ]);
    expect(report?.key_id).toBe(keyId);
  });
});
