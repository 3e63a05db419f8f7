// Access keys: an unknown key id and a wrong secret are indistinguishable (body and timing),
// and key values never reach the logs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";
import { api, runCli, sourceCommand, startServer } from "../helpers/process";

let t: TestApp;
beforeAll(async () => (t = await createTestApp()));
afterAll(() => t.close());

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

// The keys' check values refuse wrong secrets without argon2, so the three kinds of bad key now all cost
// microseconds: the property kept is that none of them costs an argon2 run (which would be both a timing
// oracle for "this id exists" and a CPU lever), and all get the same answer.
test("unknown id, wrong secret and malformed keys get the same 401 body, and none of them pays argon2", async () => {
  const [, id] = t.key.split("_");
  const wrongSecret = `rg_${id}_${"A".repeat(43)}`;
  const unknownId = `rg_${"a".repeat(12)}_${t.key.slice(-43)}`;
  const malformed = "not-a-key-at-all";
  const time = async (key: string) => {
    const t0 = performance.now();
    const res = await t.request("GET", "/api/v1/reports", { key });
    const ms = performance.now() - t0;
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('{"error":"unauthorized"}');
    return ms;
  };
  const samples: Record<string, number[]> = { wrongSecret: [], unknownId: [], malformed: [] };
  for (let i = 0; i < 15; i++) {
    samples.wrongSecret!.push(await time(wrongSecret));
    samples.unknownId!.push(await time(unknownId));
    samples.malformed!.push(await time(malformed));
  }
  // One argon2 verification takes ~10 ms here; each of these answers in well under a millisecond.
  for (const xs of Object.values(samples)) expect(median(xs)).toBeLessThan(3);
});

test("distinct wrong secrets for an existing key id run no argon2, and a new key verifies at once meanwhile", async () => {
  const [, id] = t.key.split("_");
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const floods = Array.from({ length: 2000 }, (_, i) =>
    t.request("GET", "/api/v1/reports", { key: `rg_${id}_${String(i).padStart(43, "Z")}` }),
  );
  const fresh = (await t.app.services.keys.createForAccount("acme", "during-flood")).value;
  const f0 = performance.now();
  const res = await t.request("GET", "/api/v1/reports", { key: fresh });
  const firstMs = performance.now() - f0;
  expect(res.status).toBe(200);
  expect((await Promise.all(floods)).every((r) => r.status === 401)).toBe(true);
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  // 2000 argon2 runs would be ~20 s of CPU; refusing them by check value is a few hundred ms in all.
  expect((cpu.user + cpu.system) / 1000).toBeLessThan(3000);
  expect(firstMs).toBeLessThan(1000);
  console.log(
    `flood of 2000 wrong secrets: ${Math.round(wallMs)} ms wall, ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU; first verification of a new key: ${firstMs.toFixed(1)} ms`,
  );
});

test("a key created before check values existed still works, and gets its check value on first use", async () => {
  const created = await t.app.services.keys.createForAccount("acme", "legacy");
  t.app.services.backend.db!.$client.run("UPDATE access_keys SET secret_check = NULL WHERE id = ?", [created.id]);
  const wrong = `rg_${created.id}_${"C".repeat(43)}`;
  expect((await t.request("GET", "/api/v1/reports", { key: wrong })).status).toBe(401);
  expect((await t.request("GET", "/api/v1/reports", { key: created.value })).status).toBe(200);
  const row = t.app.services.backend
    .db!.$client.query<{ c: string | null }, [string]>("SELECT secret_check AS c FROM access_keys WHERE id = ?")
    .get(created.id);
  expect(row?.c).toMatch(/^[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{6}$/);
});

test("a valid key is verified with argon2 once, then answered from the cache", async () => {
  await t.request("GET", "/api/v1/reports"); // warm
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) expect((await t.request("GET", "/api/v1/access-keys")).status).toBe(200);
  // 50 argon2 verifications would take ~500 ms.
  expect((performance.now() - t0) / 50).toBeLessThan(5);
});

test("key values never appear in the server's logs, even at debug level", async () => {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-keylog-"));
  try {
    const key = runCli(sourceCommand, ["admin", "create-key", "--name", "log", "--data-dir", dir]).stdout.trim();
    const server = await startServer(sourceCommand, dir, { extraArgs: ["--log-level", "debug"] });
    try {
      const created = await api(server.baseUrl, key, "POST", "/access-keys", { name: "second" });
      const second = created.body.data as string;
      await api(server.baseUrl, key, "POST", "/generate-pdf-async", { engine: "ejs", html_template: "<%= a %>", data: { a: 1 } });
      await api(server.baseUrl, `${key.slice(0, -1)}x`, "GET", "/reports");
      await api(server.baseUrl, second, "DELETE", `/access-keys/${second.split("_")[1]}`);
      await api(server.baseUrl, second, "GET", "/reports");
      await fetch(`${server.baseUrl}/api/v1/nope?key=${key}`, { headers: { "x-api-key": key } });
      await Bun.sleep(500);
    } finally {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
    const log = server.stderr();
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [key.split("_")[2]!]) expect(log).not.toContain(secret);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
