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

test("unknown id, wrong secret and malformed keys get the same 401 body and cost the same time", async () => {
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
  // Interleaved, so machine noise hits all three alike.
  for (let i = 0; i < 15; i++) {
    samples.wrongSecret!.push(await time(wrongSecret));
    samples.unknownId!.push(await time(unknownId));
    samples.malformed!.push(await time(malformed));
  }
  const w = median(samples.wrongSecret!);
  const u = median(samples.unknownId!);
  const m = median(samples.malformed!);
  // Each pays one argon2 verification (several ms); without the decoy an unknown id would answer in microseconds.
  expect(u).toBeGreaterThan(2);
  expect(u / w).toBeGreaterThan(0.6);
  expect(u / w).toBeLessThan(1.6);
  expect(m / w).toBeGreaterThan(0.6);
  expect(m / w).toBeLessThan(1.6);
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
      await api(server.baseUrl, key.slice(0, -1) + "x", "GET", "/reports");
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
