// Webhook delivery across crashes of the real server process (SIGKILL, then restart on the same data).
//
// The guarantee is at-least-once delivery with a stable webhook-id:
// 1. A crash while an attempt is in flight (the receiver has the request but has not answered):
//    after the restart the event is sent again with the SAME webhook-id. The receiver, deduplicating
//    by webhook-id as Standard Webhooks asks, processes exactly one success event.
// 2. A crash before the event exists (the report was still rendering): the restart renders the report
//    and the receiver gets exactly one request in all: the event is created with the final status.

import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { api, runCli, type ServerProcess, sourceCommand, startServer } from "../helpers/process";
import { type Received, type Receiver, startReceiver, verifyStandardWebhook } from "../helpers/webhook-receiver";

const dir = mkdtempSync(join(tmpdir(), "reportgen-webhook-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const serverArgs = ["--webhook-allow-hosts", "127.0.0.1", "--webhook-timeout", "60s", "--webhook-retry-base", "200ms"];

function reportStatus(id: string): string | undefined {
  const db = new Database(join(dir, "reportgen.db"), { readonly: true });
  const row = db.query<{ status: string }, [string]>("SELECT status FROM reports WHERE id = ?").get(id);
  db.close();
  return row?.status;
}

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

/**
 * One crash scenario: a fresh key, a receiver as Standard Webhooks describes it (verify, then act
 * once per webhook-id: `processed`), and servers started by `start` that are all killed at the end.
 */
async function scenario(
  keyName: string,
  respond: (r: Received, n: number) => Response | Promise<Response>,
  run: (s: { key: string; receiver: Receiver; processed: Map<string, any>; start: () => Promise<ServerProcess> }) => Promise<void>,
) {
  const key = runCli(sourceCommand, ["admin", "create-key", "--name", keyName, "--data-dir", dir]).stdout.trim();
  const processed = new Map<string, any>();
  let secret = "";
  const receiver = startReceiver(async (r, n) => {
    const res = await respond(r, n);
    if (res.status < 300 && !processed.has(r.headers["webhook-id"]!))
      processed.set(r.headers["webhook-id"]!, verifyStandardWebhook(secret, r.headers, r.body));
    return res;
  });
  const servers: ServerProcess[] = [];
  const start = async () => {
    const s = await startServer(sourceCommand, dir, { extraArgs: serverArgs });
    servers.push(s);
    secret ||= (await api(s.baseUrl, key, "GET", "/webhook-secret")).body.data.secret;
    return s;
  };
  try {
    await run({ key, receiver, processed, start });
  } finally {
    receiver.stop();
    for (const s of servers) s.proc.kill("SIGKILL");
    await Promise.all(servers.map((s) => s.proc.exited));
  }
}

test("SIGKILL while the success event is being delivered, then restart: the receiver processes exactly one success event", async () => {
  // The first request is held unanswered: the crash happens with the attempt in flight.
  let heldResolve: (r: Response) => void = () => {};
  const respond = (_r: Received, n: number) =>
    n === 1 ? new Promise<Response>((res) => (heldResolve = res)) : new Response(null, { status: 204 });
  await scenario("hooks", respond, async ({ key, receiver, processed, start }) => {
    const first = await start();
    const sub = await api(first.baseUrl, key, "POST", "/generate-pdf-async", {
      engine: "raw",
      html_template: "<p>crash mid-delivery</p>",
      webhook: { url: receiver.url },
    });
    expect(sub.status).toBe(202);
    const id: string = sub.body.report_id;
    await receiver.waitFor(1, 60_000);
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    heldResolve(new Response(null, { status: 204 })); // too late: nobody is listening for this answer

    const second = await start();
    await receiver.waitFor(2, 60_000);
    await until(
      "the delivery to be recorded",
      async () => (await api(second.baseUrl, key, "GET", `/reports/${id}`)).body.data.webhook.deliveries[0].status === "delivered",
    );
    await Bun.sleep(1_000); // nothing more arrives

    const [a, b] = receiver.received;
    expect(receiver.received).toHaveLength(2);
    expect(a!.headers["webhook-id"]).toBe(b!.headers["webhook-id"]!);
    expect(JSON.parse(a!.body).type).toBe("report.succeeded");
    expect(JSON.parse(b!.body).type).toBe("report.succeeded");
    expect(processed.size).toBe(1);
    expect([...processed.values()][0].data).toMatchObject({ report_id: id, status: "succeeded" });
    const log = (await api(second.baseUrl, key, "GET", `/reports/${id}`)).body.data.webhook.deliveries;
    expect(log).toHaveLength(1);
    // The interrupted attempt was never recorded; the one after the restart was.
    expect(log[0].attempts.map((x: any) => x.response_status)).toEqual([204]);
  });
}, 180_000);

test("SIGKILL while the report renders, then restart: exactly one request reaches the receiver", async () => {
  await scenario(
    "hooks2",
    () => new Response(null, { status: 200 }),
    async ({ key, receiver, processed, start }) => {
      const first = await start();
      // Chromium is kept busy ~1.5 s by the page's own script, so the kill lands mid-render.
      const slow = {
        engine: "raw",
        html_template: "<p>slow</p><script>var e = Date.now() + 1500; while (Date.now() < e) {}</script>",
        webhook: { url: receiver.url },
      };
      const id: string = (await api(first.baseUrl, key, "POST", "/generate-pdf-async", slow)).body.report_id;
      await until("the report to be processing", () => reportStatus(id) === "processing");
      first.proc.kill("SIGKILL");
      await first.proc.exited;
      expect(receiver.received).toHaveLength(0);

      await start();
      await receiver.waitFor(1, 60_000);
      await Bun.sleep(1_000);
      expect(receiver.received).toHaveLength(1);
      expect(processed.size).toBe(1);
      expect([...processed.values()][0]).toMatchObject({
        type: "report.succeeded",
        data: { report_id: id, status: "succeeded", attempts: 2 },
      });
    },
  );
}, 180_000);

test("admin webhook-secret prints the account's secret (the one the API shows); --rotate replaces it", async () => {
  const cliDir = mkdtempSync(join(tmpdir(), "reportgen-webhook-cli-"));
  try {
    const key = runCli(sourceCommand, ["admin", "create-key", "--name", "cli", "--account", "acme", "--data-dir", cliDir]).stdout.trim();
    const shown = runCli(sourceCommand, ["admin", "webhook-secret", "--account", "acme", "--data-dir", cliDir]);
    expect(shown.code).toBe(0);
    const secret = shown.stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(runCli(sourceCommand, ["admin", "webhook-secret", "--account", "acme", "--data-dir", cliDir]).stdout.trim()).toBe(secret);
    const rotated = runCli(sourceCommand, ["admin", "webhook-secret", "--account", "acme", "--rotate", "--data-dir", cliDir]);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout.trim()).not.toBe(secret);
    expect(rotated.stderr).toContain("previous one until");
    const t = await createTestApp({ dir: cliDir });
    try {
      const fromApi = ((await (await t.request("GET", "/api/v1/webhook-secret", { key })).json()) as any).data;
      expect(fromApi.secret).toBe(rotated.stdout.trim());
      expect(fromApi.previous_secret_valid_until).toBeString();
    } finally {
      await t.close();
    }
    const unknown = runCli(sourceCommand, ["admin", "webhook-secret", "--account", "nobody", "--data-dir", cliDir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("nobody");
  } finally {
    rmSync(cliDir, { recursive: true, force: true });
  }
}, 120_000);
