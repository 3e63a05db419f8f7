// Webhooks without Chromium: reports are finished the way the processor finishes them (repo +
// events), and events go over real HTTP to a receiver on loopback (allow-listed). Signatures are
// checked with an independent implementation of the published algorithm.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, fetchLink, type TestApp } from "../helpers/app";
import { type Receiver, startReceiver, verifyStandardWebhook } from "../helpers/webhook-receiver";

const fast = { webhookAllowHosts: ["127.0.0.1"], webhookRetryBase: 100, webhookTimeout: 500 };

async function submit(t: TestApp, url: string, key?: string): Promise<string> {
  const r = await t.request("POST", "/api/v1/generate-pdf-async", {
    body: { engine: "raw", html_template: "<p>hi</p>", webhook: { url } },
    key,
  });
  expect(r.status).toBe(202);
  return ((await r.json()) as { report_id: string }).report_id;
}

/** Finishes the oldest queued report as the processor would: status change, then the in-process event. */
async function finish(t: TestApp, id: string, outcome: "succeeded" | "failed") {
  const [claimed] = await t.app.services.repos.queue.claim(Date.now(), 60_000);
  expect(claimed?.id).toBe(id);
  const attempt = claimed!.attempts;
  const now = Date.now();
  if (outcome === "succeeded") {
    writeFileSync(t.app.services.spool.pathOf(id), "%PDF-1.4 test\n");
    await t.app.services.repos.queue.succeed({ id, attempt, sizeBytes: 14, pageCount: 1, finishedAt: now, expiresAt: now + 3_600_000 });
  } else {
    await t.app.services.repos.queue.fail(id, attempt, "template_error", "ReferenceError: total is not defined (line 3)", now);
  }
  t.app.services.reports.events.finished(id);
}

async function reportOf(t: TestApp, id: string, key?: string) {
  return ((await (await t.request("GET", `/api/v1/reports/${id}`, { key })).json()) as { data: any }).data;
}

async function secretOf(t: TestApp, key?: string): Promise<string> {
  return ((await (await t.request("GET", "/api/v1/webhook-secret", { key })).json()) as { data: { secret: string } }).data.secret;
}

/** Polls the report until its (only) delivery is no longer pending. */
async function settled(t: TestApp, id: string, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await reportOf(t, id);
    const d = r.webhook?.deliveries?.[0];
    if (d && d.status !== "pending") return r;
    if (Date.now() > end) throw new Error(`delivery still pending: ${JSON.stringify(r.webhook)}`);
    await Bun.sleep(25);
  }
}

describe("webhook secret", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  test("GET creates the account's secret once and then returns the same one", async () => {
    const a = await t.request("GET", "/api/v1/webhook-secret");
    expect(a.status).toBe(200);
    const first = ((await a.json()) as any).data;
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(first.previous_secret_valid_until).toBeNull();
    expect(await secretOf(t)).toBe(first.secret);
  });

  test("each account has its own secret", async () => {
    const other = (await t.app.services.keys.createForAccount("globex", "k")).value;
    expect(await secretOf(t, other)).not.toBe(await secretOf(t));
  });

  test("rotate replaces it; the previous one stays valid for 24 hours", async () => {
    const before = await secretOf(t);
    const r = await t.request("POST", "/api/v1/webhook-secret/rotate", { body: {} });
    expect(r.status).toBe(200);
    const d = ((await r.json()) as any).data;
    expect(d.secret).not.toBe(before);
    const until = Date.parse(d.previous_secret_valid_until);
    expect(until - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    expect(await secretOf(t)).toBe(d.secret);
  });

  test("needs a key", async () => {
    expect((await t.request("GET", "/api/v1/webhook-secret", { key: null })).status).toBe(401);
    expect((await t.request("POST", "/api/v1/webhook-secret/rotate", { key: null, body: {} })).status).toBe(401);
  });
});

describe("submission", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ config: { webhookAllowHosts: ["hooks.internal"] } })));
  afterAll(() => t.close());

  test.each([
    "http://127.0.0.1:9/hook",
    "https://0x7f.1/hook",
    "https://2130706433/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://169.254.169.254/latest/meta-data/",
    "https://[fd00:ec2::254]/",
    "https://192.168.0.10/hook",
    "https://localhost/hook",
    "http://hooks.example.com/plain",
    "https://u:p@hooks.example.com/",
  ])("refuses webhook.url %s with 422 and queues nothing", async (url) => {
    const r = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: "<p>x</p>", webhook: { url } },
    });
    expect(r.status).toBe(422);
    const b = (await r.json()) as any;
    expect(b.error).toBe("validation_failed");
    expect(b.details[0].field).toBe("webhook.url");
    expect(await t.app.services.repos.reports.countUnfinished()).toBe(0);
  });

  test("unknown fields of webhook are refused", async () => {
    const r = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: "<p>x</p>", webhook: { url: "https://a.example.com/", secret: "x" } },
    });
    expect(r.status).toBe(422);
  });

  test("an allow-listed host may use plain http; a report without a webhook shows no webhook field", async () => {
    const id = await submit(t, "http://hooks.internal/reportgen");
    expect((await reportOf(t, id)).webhook).toEqual({ url: "http://hooks.internal/reportgen", deliveries: [] });
    const plain = (
      (await (await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: "<p>x</p>" } })).json()) as any
    ).report_id;
    expect("webhook" in (await reportOf(t, plain))).toBe(false);
  });
});

describe("delivery", () => {
  let t: TestApp;
  let receiver: Receiver;
  let answer: (n: number) => Response | Promise<Response>;
  beforeAll(async () => {
    t = await createTestApp({ config: fast });
    receiver = startReceiver((_r, n) => answer(n));
  });
  afterAll(async () => {
    await t.close();
    receiver.stop();
  });

  test("a failed report: one signed report.failed event with the failure code and message", async () => {
    answer = () => new Response(null, { status: 204 });
    receiver.received.length = 0;
    const id = await submit(t, receiver.url);
    await finish(t, id, "failed");
    const [got] = await receiver.waitFor(1);
    const event = verifyStandardWebhook(await secretOf(t), got!.headers, got!.body);
    expect(got!.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(event.type).toBe("report.failed");
    expect(Date.parse(event.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(event.data).toMatchObject({
      report_id: id,
      status: "failed",
      engine: "raw",
      error: { code: "template_error", message: "ReferenceError: total is not defined (line 3)" },
      download: null,
    });
    expect(event.data.created_at).toBeString();
    expect(event.data.started_at).toBeString();
    expect(event.data.finished_at).toBeString();

    const r = await settled(t, id);
    expect(r.webhook.url).toBe(receiver.url);
    expect(r.webhook.deliveries).toHaveLength(1);
    expect(r.webhook.deliveries[0]).toMatchObject({
      webhook_id: got!.headers["webhook-id"],
      event: "report.failed",
      status: "delivered",
      next_attempt_at: null,
      last_error: null,
    });
    expect(r.webhook.deliveries[0].attempts).toEqual([
      { at: expect.any(String), duration_ms: expect.any(Number), response_status: 204, error: null },
    ]);
    await Bun.sleep(300);
    expect(receiver.received).toHaveLength(1); // delivered once, not again
  });

  test("a succeeded report: report.succeeded with status, timestamps and a working signed download link", async () => {
    answer = () => new Response("ok");
    receiver.received.length = 0;
    const id = await submit(t, receiver.url);
    await finish(t, id, "succeeded");
    const [got] = await receiver.waitFor(1);
    const event = verifyStandardWebhook(await secretOf(t), got!.headers, got!.body);
    expect(event.type).toBe("report.succeeded");
    expect(event.data).toMatchObject({ report_id: id, status: "succeeded", error: null, size_bytes: 14, page_count: 1 });
    expect(event.data.expires_at).toBeString();
    expect(event.data.download.url).toStartWith(`http://localhost/files/${id}?expires=`);
    expect(Date.parse(event.data.download.expires_at)).toBeGreaterThan(Date.now());
    const pdf = await fetchLink(t, event.data.download.url);
    expect(pdf.status).toBe(200);
    expect(await pdf.text()).toBe("%PDF-1.4 test\n");
    expect((await settled(t, id)).webhook.deliveries[0].status).toBe("delivered");
  });

  test("500s are retried with backoff, with the same webhook-id and a fresh signature each time", async () => {
    answer = (n) => new Response("busy", { status: n <= 2 ? 500 : 200 });
    receiver.received.length = 0;
    const id = await submit(t, receiver.url);
    await finish(t, id, "failed");
    const got = await receiver.waitFor(3);
    const secret = await secretOf(t);
    for (const g of got) verifyStandardWebhook(secret, g.headers, g.body);
    expect(new Set(got.map((g) => g.headers["webhook-id"])).size).toBe(1);
    // Backoff: at least half the base (100 ms) before the 2nd attempt, half of twice that before the 3rd.
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(45);
    expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(95);
    const r = await settled(t, id);
    expect(r.webhook.deliveries[0].status).toBe("delivered");
    expect(r.webhook.deliveries[0].attempts.map((a: any) => a.response_status)).toEqual([500, 500, 200]);
  });

  test("a timeout is retried", async () => {
    answer = (n) => (n === 1 ? new Promise<Response>(() => {}) : new Response(null, { status: 202 }));
    receiver.received.length = 0;
    const id = await submit(t, receiver.url);
    await finish(t, id, "failed");
    await receiver.waitFor(2);
    const r = await settled(t, id);
    expect(r.webhook.deliveries[0].status).toBe("delivered");
    expect(r.webhook.deliveries[0].attempts.map((a: any) => [a.response_status, a.error])).toEqual([
      [null, "no answer within 500 ms"],
      [202, null],
    ]);
  });

  test("a connection error is retried", async () => {
    const down = startReceiver();
    const url = down.url;
    down.stop(); // nothing listens there now
    const id = await submit(t, url);
    await finish(t, id, "failed");
    const end = Date.now() + 10_000;
    let r;
    do {
      await Bun.sleep(50);
      r = await reportOf(t, id);
    } while ((r.webhook.deliveries[0]?.attempts.length ?? 0) < 2 && Date.now() < end);
    expect(r.webhook.deliveries[0].status).toBe("pending");
    expect(r.webhook.deliveries[0].attempts[0].error).toStartWith("connection failed");
    expect(r.webhook.deliveries[0].next_attempt_at).toBeString();
    expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200); // its deliveries go with it
    expect(t.app.services.backend.db!.$client.query("SELECT 1 FROM webhook_deliveries WHERE report_id = ?").all(id)).toHaveLength(0);
  });
});

test("a failing receiver is given up after the retry window", async () => {
  const t = await createTestApp({ config: { ...fast, webhookRetryWindow: 1_000 } });
  const receiver = startReceiver(() => new Response(null, { status: 503 }));
  try {
    const id = await submit(t, receiver.url);
    await finish(t, id, "failed");
    const r = await settled(t, id);
    const d = r.webhook.deliveries[0];
    expect(d.status).toBe("failed");
    expect(d.last_error).toBe("answered 503");
    expect(d.attempts.length).toBeGreaterThanOrEqual(2);
    expect(Date.parse(d.finished_at) - Date.parse(d.created_at)).toBeLessThan(1_000 + 1_000);
    const n = receiver.received.length;
    await Bun.sleep(500);
    expect(receiver.received.length).toBe(n);
  } finally {
    await t.close();
    receiver.stop();
  }
});

test("pending deliveries survive a restart; a target the new policy refuses is given up, not retried", async () => {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-webhook-restart-"));
  try {
    // The receiver goes down before the report finishes: the first attempt fails, the next is a minute away.
    const receiver = startReceiver();
    const a = await createTestApp({ dir, config: { ...fast, webhookRetryBase: 60_000 } });
    const first = await submit(a, receiver.url);
    receiver.stop();
    finish(a, first, "succeeded");
    const end = Date.now() + 10_000;
    while ((await reportOf(a, first)).webhook.deliveries[0]?.attempts.length !== 1 && Date.now() < end) await Bun.sleep(25);
    expect((await reportOf(a, first)).webhook.deliveries[0].status).toBe("pending");
    await a.close();

    // The receiver is back on the same port; the restarted app delivers the event.
    const seen: string[] = [];
    const again = Bun.serve({
      hostname: "127.0.0.1",
      port: receiver.port,
      fetch: (req) => (seen.push(req.headers.get("webhook-id")!), new Response(null, { status: 204 })),
    });
    const b = await createTestApp({ dir, config: fast });
    try {
      // Not due for a minute: make it due now, as if the minute had passed.
      b.app.services.backend.db!.$client.run("UPDATE webhook_deliveries SET next_attempt_at = 0 WHERE status = 'pending'");
      b.app.webhookSender!.notify();
      const r = await settled(b, first);
      expect(r.webhook.deliveries[0].status).toBe("delivered");
      expect(r.webhook.deliveries[0].attempts.map((x: any) => x.response_status)).toEqual([null, 204]);
      expect(seen).toEqual([r.webhook.deliveries[0].webhook_id]);
    } finally {
      await b.close();
    }
    const c = await createTestApp({ dir, config: { ...fast, webhookAllowHosts: [] } });
    try {
      const second = await submit(c, "https://hooks.example.com/x");
      c.app.services.backend.db!.$client.run("UPDATE report_webhooks SET url = ? WHERE report_id = ?", [
        `http://127.0.0.1:${receiver.port}/hook`,
        second,
      ]);
      finish(c, second, "failed");
      const r = await settled(c, second);
      expect(r.webhook.deliveries[0].status).toBe("failed");
      expect(r.webhook.deliveries[0].attempts).toHaveLength(1);
      expect(r.webhook.deliveries[0].attempts[0].error).toContain("allow-listed");
      expect(seen).toHaveLength(1); // nothing reached the receiver
    } finally {
      await c.close();
      again.stop(true);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
