// Two Apps on one PostgreSQL database, in one test process: "api" renders nothing and takes the
// requests, "worker" renders with real Chromium. They share only the database (and, standing in for the
// bucket, the data dir's reports folder). What crosses between them is what crosses between machines:
// the queue (FOR UPDATE SKIP LOCKED), LISTEN/NOTIFY wake-ups and completions, leases and the reaper.
import { expect, test } from "bun:test";
import { openRepos } from "../../src/app/repos";
import { usePostgres, usePostgresPair } from "../helpers/postgres";

const pg = usePostgres();
const pair = usePostgresPair(pg);

const RAW = { engine: "raw", html_template: "<h1>cluster</h1>" };

test("a report submitted to the api instance is rendered by the worker; the long poll on the api instance answers at once", async () => {
  const { api, worker } = pair();
  const res = await api.request("POST", "/api/v1/generate-pdf-async", { body: RAW });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const t0 = Date.now();
  // The api instance renders nothing: only the worker's NOTIFY on completion can end this wait early.
  const polled = await api.request("GET", `/api/v1/reports/${report_id}?wait=30`);
  const waited = Date.now() - t0;
  const body = (await polled.json()) as { data: { status: string } };
  expect(body.data.status).toBe("succeeded");
  expect(waited).toBeLessThan(15_000);
  // The download link minted by the api instance opens on the worker (one shared link secret).
  const dl = (await (await api.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string };
  const path = new URL(dl.data).pathname + new URL(dl.data).search;
  const file = await worker.app.http.handle(new Request(`http://localhost${path}`));
  expect(file.status).toBe(200);
  expect(new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
});

test("a key created on one instance works on the other at once", async () => {
  const { api, worker } = pair();
  const created = await api.request("POST", "/api/v1/access-keys", { body: { name: "shared" } });
  const { data: key } = (await created.json()) as { data: string };
  expect((await worker.request("GET", "/api/v1/reports", { key })).status).toBe(200);
});

test("a key deleted on one instance is refused by the other within milliseconds, though the other keeps verified keys for 1 s", async () => {
  const { api, worker } = pair();
  const created = await api.request("POST", "/api/v1/access-keys", { body: { name: "doomed" } });
  const { data: key, id } = (await created.json()) as { data: string; id: string };
  // Verified on the worker, then served from its kept row.
  expect((await worker.request("GET", "/api/v1/reports", { key })).status).toBe(200);
  expect((await worker.request("GET", "/api/v1/reports", { key })).status).toBe(200);
  expect((await api.request("DELETE", `/api/v1/access-keys/${id}`)).status).toBe(200);
  const t0 = Date.now();
  let status = 200;
  while (status === 200 && Date.now() - t0 < 2_000) {
    status = (await worker.request("GET", "/api/v1/reports", { key })).status;
    if (status === 200) await Bun.sleep(5);
  }
  // The NOTIFY of the delete, not the row's 1 s lifetime, ended it.
  expect(status).toBe(401);
  expect(Date.now() - t0).toBeLessThan(500);
});

test("the reports of a dead instance go back to the queue when its lease runs out, and are rendered by a live one", async () => {
  const { api, url, dir } = pair();
  // A third "instance" claims two reports with a 1 s lease and dies (never renews, never finishes).
  const dead = await openRepos({ dataDir: dir, databaseUrl: url });
  try {
    const ids: string[] = [];
    const account = await dead.repos.accounts.ensure("acme");
    // Inserted and claimed in one transaction: the worker never sees them queued.
    const claimed = await dead.repos.reports.transaction(async () => {
      for (let i = 0; i < 2; i++) {
        const id = crypto.randomUUID();
        ids.push(id);
        await dead.repos.reports.insert({
          id,
          accountId: account.id,
          engine: "raw",
          template: `<p>orphan ${i}</p>`,
          data: null,
          options: null,
          createdAt: Date.now(),
        });
      }
      return dead.repos.queue.claim(Date.now(), 1_000, 2);
    });
    expect(claimed.map((c) => c.id).sort()).toEqual([...ids].sort());
    const t0 = Date.now();
    for (const id of ids) {
      for (;;) {
        const r = await api.app.services.repos.reports.getForDownload(id);
        if (r?.status === "succeeded") break;
        if (Date.now() - t0 > 30_000) throw new Error(`report ${id} is ${r?.status} after 30 s`);
        await Bun.sleep(100);
      }
    }
    // Taken back within lease (1 s) + reaper period (5 s) + a render.
    expect(Date.now() - t0).toBeLessThan(15_000);
    for (const c of claimed) {
      const r = await api.app.services.repos.reports.getForDownload(c.id);
      expect(r?.attempts).toBe(2);
      // The dead instance's claim is fenced out for good.
      expect(
        await dead.repos.queue.succeed({ id: c.id, attempt: c.attempts, sizeBytes: 1, pageCount: 1, finishedAt: 1, expiresAt: 2 }),
      ).toBe(false);
    }
  } finally {
    await dead.close();
  }
}, 60_000);

test("the cleanup job runs in one instance at a time", async () => {
  const { api, url, dir } = pair();
  const lease = await openRepos({ dataDir: dir, databaseUrl: url });
  try {
    expect(await lease.repos.jobs.acquire("cleanup", "someone-else", Date.now(), 60_000)).toBe(true);
    expect((await api.app.cleanup()).skipped).toBe(true);
    await lease.repos.jobs.release("cleanup", "someone-else");
    expect((await api.app.cleanup()).skipped).toBeUndefined();
  } finally {
    await lease.close();
  }
});
