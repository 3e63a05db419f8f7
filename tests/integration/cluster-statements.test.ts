// What the cluster costs PostgreSQL per report (issue 36), on two Apps sharing one database: "worker"
// renders, "api" takes requests only. A submission to an instance with a free render slot is claimed by
// its own insert (no claim statement, no instance woken: src/modules/reports/slots.ts), and a long poll
// on the other instance answers from the notification's final state without reading the report again
// (src/modules/reports/peers.ts). Every statement each instance sends is recorded with its parameters.
import { afterEach, expect, test } from "bun:test";
import type { PostgresSql } from "../../src/db/postgres";
import type { TestApp } from "../helpers/app";
import { usePostgres, usePostgresPair } from "../helpers/postgres";

const pg = usePostgres();
const pair = usePostgresPair(pg);

const RAW = { engine: "raw", html_template: "<h1>statements</h1>" };

interface Sent {
  text: string;
  params: readonly unknown[];
  rows: unknown;
}

const restore: (() => void)[] = [];
afterEach(() => {
  for (const r of restore.splice(0)) r();
});

/** Records every statement the instance sends from now on (the Sql port's entry points), until the test ends. */
function record(t: TestApp): Sent[] {
  const sql = t.app.services.backend.pg! as PostgresSql & Record<string, unknown>;
  const sent: Sent[] = [];
  for (const m of ["all", "get", "run"] as const) {
    const orig = sql[m].bind(sql) as (text: string, params?: readonly unknown[], o?: unknown) => Promise<unknown>;
    sql[m] = (async (text: string, params: readonly unknown[] = [], o?: unknown) => {
      const rows = await orig(text, params, o);
      sent.push({ text, params, rows });
      return rows;
    }) as never;
    restore.push(() => delete sql[m]);
  }
  return sent;
}

/** The statements that name the report (by its id among their parameters). */
const about = (sent: Sent[], id: string) => sent.filter((s) => s.params.some((p) => p === id || (typeof p === "string" && p.includes(id))));

/** The reads of the report's row. */
const readsOf = (sent: Sent[], id: string) =>
  about(sent, id).filter((s) => /^\s*SELECT\b[\s\S]*\bFROM reports WHERE id = \$1/.test(s.text));

/** The claims (of either instance) that took the report. */
const claimsOf = (sent: Sent[], id: string) =>
  sent.filter(
    (s) => s.text.includes("FOR UPDATE SKIP LOCKED") && Array.isArray(s.rows) && s.rows.some((r) => (r as { id?: string }).id === id),
  );

async function submit(t: TestApp, headers?: Record<string, string>): Promise<string> {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: RAW, headers });
  expect(res.status).toBe(202);
  return ((await res.json()) as { report_id: string }).report_id;
}

test("a report submitted to the rendering instance is claimed by its insert; the other instance's long poll answers from the notification, reading the report once", async () => {
  const { api, worker } = pair();
  // Keys verified on both (their rows are then kept), so that only the report's statements remain.
  expect((await api.request("GET", "/api/v1/reports")).status).toBe(200);
  expect((await worker.request("GET", "/api/v1/reports")).status).toBe(200);
  const onApi = record(api);
  const onWorker = record(worker);
  const id = await submit(worker);
  const polled = await api.request("GET", `/api/v1/reports/${id}?wait=30`);
  expect(polled.status).toBe(200);
  const answer = ((await polled.json()) as { data: Record<string, unknown> }).data;
  expect(answer.status).toBe("succeeded");
  // No claim took it, on either instance: the insert did, for the worker.
  expect(claimsOf([...onApi, ...onWorker], id)).toEqual([]);
  const inserts = about(onWorker, id).filter((s) => s.text.includes("INSERT INTO reports"));
  expect(inserts.map((s) => s.rows)).toEqual([{ total: expect.any(Number), account: expect.any(Number), inserted: 1, claimed: 1 }]);
  // The api instance read the report once, before it waited (then unfinished): the answer came with
  // the notification, not from a second read.
  const reads = readsOf(onApi, id);
  expect(reads).toHaveLength(1);
  expect(["queued", "processing"]).toContain((reads[0]!.rows as { status: string }).status);
  // And it is the report as it stands.
  const now = ((await (await api.request("GET", `/api/v1/reports/${id}`)).json()) as { data: Record<string, unknown> }).data;
  expect(answer).toEqual(now);
  expect(answer.attempts).toBe(1);
  // The download link of the winning attempt, minted on the api instance, opens on the worker.
  const dl = (await (await api.request("GET", `/api/v1/reports/${id}/download`)).json()) as { data: string };
  const link = new URL(dl.data);
  const file = await worker.app.http.handle(new Request(`http://localhost${link.pathname}${link.search}`));
  expect(file.status).toBe(200);
  expect(new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
}, 60_000);

test("a long poll whose notification is lost still answers when its wait ends, by reading the report", async () => {
  const { api, worker } = pair();
  const events = api.app.services.reports.events;
  const finished = events.finished.bind(events);
  // The api instance never hears of other instances' outcomes.
  events.finished = (id, elsewhere, ...rest) => {
    if (!elsewhere) finished(id, elsewhere, ...rest);
  };
  restore.push(() => {
    events.finished = finished;
  });
  const onApi = record(api);
  const id = await submit(worker);
  const t0 = Date.now();
  const polled = await api.request("GET", `/api/v1/reports/${id}?wait=3`);
  const waited = Date.now() - t0;
  const answer = ((await polled.json()) as { data: { status: string } }).data;
  expect(answer.status).toBe("succeeded");
  expect(waited).toBeGreaterThanOrEqual(2_900);
  expect(readsOf(onApi, id)).toHaveLength(2);
}, 60_000);

test("a submission with an Idempotency-Key is claimed by its insert once the enclosing transaction commits; its replay names the same report", async () => {
  const { worker } = pair();
  const onWorker = record(worker);
  const headers = { "idempotency-key": crypto.randomUUID() };
  const id = await submit(worker, headers);
  const polled = await worker.request("GET", `/api/v1/reports/${id}?wait=30`);
  expect(((await polled.json()) as { data: { status: string; attempts: number } }).data).toMatchObject({
    status: "succeeded",
    attempts: 1,
  });
  expect(claimsOf(onWorker, id)).toEqual([]);
  expect(await submit(worker, headers)).toBe(id);
}, 60_000);

test("a chunked report (its progress moved while it rendered) claimed by its insert: the other instance's long poll answers from the notification, reading it once", async () => {
  const { api, worker } = pair();
  expect((await api.request("GET", "/api/v1/reports")).status).toBe(200);
  const onApi = record(api);
  const onWorker = record(worker);
  const rows = Array.from({ length: 300 }, (_, i) => ({ n: i + 1 }));
  const res = await worker.request("POST", "/api/v1/generate-pdf-async", {
    body: {
      engine: "ejs",
      html_template: "<table><% rows.forEach(function (r) { %><tr><td><%= r.n %></td></tr><% }) %></table>",
      data: { rows },
      options: { chunk: { array: "rows", size: 100 } },
    },
  });
  expect(res.status).toBe(202);
  const id = ((await res.json()) as { report_id: string }).report_id;
  const polled = await api.request("GET", `/api/v1/reports/${id}?wait=30`);
  const answer = ((await polled.json()) as { data: Record<string, unknown> }).data;
  expect(answer.status).toBe("succeeded");
  expect(claimsOf([...onApi, ...onWorker], id)).toEqual([]);
  const reads = readsOf(onApi, id);
  expect(reads).toHaveLength(1);
  expect(["queued", "processing"]).toContain((reads[0]!.rows as { status: string }).status);
  const now = ((await (await api.request("GET", `/api/v1/reports/${id}`)).json()) as { data: Record<string, unknown> }).data;
  expect(answer).toEqual(now);
}, 120_000);
