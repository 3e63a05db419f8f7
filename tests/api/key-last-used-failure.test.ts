// A key's last-used write that fails (src/modules/keys/authenticator.ts) refuses nothing, and is no
// longer silent: it is logged and counted in /metrics by cause. Two real failures: the App's own SQLite
// connection refusing writes (PRAGMA query_only: SQLITE_READONLY, a storage fault), and the keys
// repository's write failing as a lost database connection would ("other").
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger, type Logger } from "../../src/lib/logger";
import { mintKey } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";

const MESSAGE = "the last use of an access key was not recorded (requests with it are still served)";

const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
const quiet = createLogger("error");
const logger: Logger = {
  ...quiet,
  warn: (msg, fields) => void lines.push({ level: "warn", msg, fields }),
  error: (msg, fields) => void lines.push({ level: "error", msg, fields }),
  child: () => logger,
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logger });
});
afterAll(() => t.close());

/** The line logged for `keyId`'s failed write; waits for it (the write is not awaited by the request). */
async function loggedFor(keyId: string) {
  const end = Date.now() + 20_000;
  for (;;) {
    const line = lines.find((l) => l.msg === MESSAGE && l.fields?.key_id === keyId);
    if (line || Date.now() > end) return line;
    await Bun.sleep(20);
  }
}

const failures = async () => {
  const text = await (await t.request("GET", "/metrics", { key: null })).text();
  return Object.fromEntries(
    [...text.matchAll(/^reportgen_key_last_used_failures_total\{cause="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]),
  );
};

const lastUsed = async (keyId: string) => (await t.app.services.keys.list()).find((k) => k.id === keyId)!.lastUsedAt;

test("no failure yet: every cause is listed at 0", async () => {
  expect(await failures()).toEqual({ full: 0, read_only: 0, io: 0, other: 0 });
});

test("a database that refuses writes: the request is served, a warning names the key, read_only is counted", async () => {
  const key = await mintKey(t, { name: "read-only disk" });
  const sqlite = t.app.services.backend.db!.$client;
  sqlite.exec("PRAGMA query_only = ON");
  try {
    expect((await t.request("GET", "/api/v1/reports", { key: key.value })).status).toBe(200);
    const line = await loggedFor(key.id);
    expect(line).toMatchObject({ level: "warn", fields: { key_id: key.id, cause: "read_only" } });
    expect(String((line!.fields!.error as Error).message)).toMatch(/readonly/i);
  } finally {
    sqlite.exec("PRAGMA query_only = OFF");
  }
  expect(await failures()).toEqual({ full: 0, read_only: 1, io: 0, other: 0 });
  expect(await lastUsed(key.id)).toBeNull();
});

test("a failure that is not the disk's (a lost database connection): an error line, counted as other", async () => {
  const key = await mintKey(t, { name: "lost connection" });
  const repo = t.app.services.repos.keys;
  const touch = repo.touch;
  repo.touch = () => Promise.reject(Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" }));
  try {
    expect((await t.request("GET", "/api/v1/reports", { key: key.value })).status).toBe(200);
    expect(await loggedFor(key.id)).toMatchObject({ level: "error", fields: { key_id: key.id, cause: "other" } });
  } finally {
    repo.touch = touch;
  }
  expect(await failures()).toEqual({ full: 0, read_only: 1, io: 0, other: 1 });
});

test("a write that succeeds is neither logged nor counted", async () => {
  const key = await mintKey(t, { name: "healthy" });
  expect((await t.request("GET", "/api/v1/reports", { key: key.value })).status).toBe(200);
  const end = Date.now() + 20_000;
  while ((await lastUsed(key.id)) === null && Date.now() < end) await Bun.sleep(20);
  expect(await lastUsed(key.id)).not.toBeNull();
  expect(lines.filter((l) => l.fields?.key_id === key.id)).toEqual([]);
  expect(await failures()).toEqual({ full: 0, read_only: 1, io: 0, other: 1 });
});
