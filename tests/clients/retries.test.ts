// Both clients retry 429 and 503 after the server's Retry-After, with the same Idempotency-Key, and succeed.
// The refusals are real: one executable allows 1 POST per second per key (--submit-rate-limit 1, bursts of
// 2: 429 rate_limited, Retry-After 1), another queues one report at most (--queue-limit 1: while a slow
// report is unfinished, the next gets 503 queue_full, Retry-After 5).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createClient, ReportgenError } from "../../clients/typescript/src/index";
import { createKey, type Server, startServer, tempDataDir } from "../blackbox/helpers";
import { invoice, pdfText, slowReport } from "./fixtures";
import { missingPython, runScenario } from "./python";

const servers: Record<"rate" | "queue", { server?: Server; key: string; remove: () => void }> = {
  rate: { key: "", remove: () => {} },
  queue: { key: "", remove: () => {} },
};
const flags = { rate: ["--submit-rate-limit", "1"], queue: ["--queue-limit", "1"] };

beforeAll(async () => {
  for (const name of ["rate", "queue"] as const) {
    const data = tempDataDir();
    servers[name].remove = data.remove;
    servers[name].key = createKey(data.dir);
    servers[name].server = await startServer(data.dir, { extraArgs: flags[name] });
  }
}, 180_000);
afterAll(async () => {
  for (const s of Object.values(servers)) {
    await s.server?.stop();
    s.remove();
  }
});

/** A client of `name`'s server that records each request (when, its Idempotency-Key, its status) and each retry. */
function recordingClient(name: "rate" | "queue", maxRetryDelayMs?: number) {
  const sent: { at: number; key: string | null; status: number }[] = [];
  const retries: { code: string; delayMs: number }[] = [];
  const client = createClient({
    baseUrl: servers[name].server!.base,
    apiKey: servers[name].key,
    maxRetryDelayMs,
    onRetry: (e, _n, delayMs) => retries.push({ code: e.code, delayMs }),
    fetch: Object.assign(
      async (input: RequestInfo | URL, init?: RequestInit) => {
        const at = performance.now();
        const res = await fetch(input, init);
        sent.push({ at, key: new Headers(init?.headers).get("idempotency-key"), status: res.status });
        return res;
      },
      { preconnect: fetch.preconnect },
    ),
  });
  /** Each refused request was sent again, after Retry-After, with the same Idempotency-Key. */
  const checkRetries = (code: string) => {
    expect(retries.length).toBeGreaterThanOrEqual(1);
    for (const r of retries) expect(r.code).toBe(code);
    sent.forEach((s, i) => {
      if (s.status !== 429 && s.status !== 503) return;
      const next = sent[i + 1]!;
      expect(next.key).toBe(s.key);
      expect(next.at - s.at).toBeGreaterThanOrEqual(retries[0]!.delayMs - 10);
    });
  };
  return { client, retries, checkRetries };
}

test("TypeScript: 429 rate_limited is retried after Retry-After, and every POST succeeds", async () => {
  const { client, retries, checkRetries } = recordingClient("rate");
  for (let i = 0; i < 6; i++) await client.templates.create({ name: `t${i}`, engine: "raw", html_template: "<p>t</p>" });
  checkRetries("rate_limited");
  expect(retries[0]!.delayMs).toBe(1000);
}, 60_000);

test("TypeScript: 503 queue_full is retried after Retry-After until the queue has room", async () => {
  const { client, retries, checkRetries } = recordingClient("queue");
  const first = await createClient({ baseUrl: servers.queue.server!.base, apiKey: servers.queue.key }).reports.generate(slowReport(3000));
  const second = await client.reports.generate(invoice(2));
  checkRetries("queue_full");
  expect(retries[0]!.delayMs).toBe(5000);
  expect(pdfText(await client.reports.download(second.report_id))).toContain("Invoice 2");
  expect((await client.reports.get(first.report_id, { wait: 30 })).status).toBe("succeeded");
}, 60_000);

test("TypeScript: a Retry-After longer than maxRetryDelayMs is thrown at once, carrying the wait", async () => {
  const { client, retries } = recordingClient("queue", 1000);
  const first = await client.reports.generate(slowReport(2000));
  const t0 = performance.now();
  const refused = await client.reports.generate(invoice(3)).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ReportgenError);
  expect([(refused as ReportgenError).code, (refused as ReportgenError).retryAfter]).toEqual(["queue_full", 5]);
  expect(performance.now() - t0).toBeLessThan(1000);
  expect(retries).toEqual([]);
  await client.reports.get(first.report_id, { wait: 30 });
}, 60_000);

for (const [scenario, server, title] of [
  ["retry_429", "rate", "Python: 429 rate_limited is retried after Retry-After, and every POST succeeds"],
  ["retry_503", "queue", "Python: 503 queue_full is retried after Retry-After until the queue has room"],
] as const) {
  test(title, async () => {
    const missing = missingPython();
    if (missing) throw new Error(missing);
    const r = await runScenario(scenario, servers[server].server!.base, servers[server].key);
    expect({ scenario, code: r.code, ...(r.code === 0 ? {} : { err: r.err }) }).toEqual({ scenario, code: 0 });
    console.error(r.out.trim());
  }, 90_000);
}
