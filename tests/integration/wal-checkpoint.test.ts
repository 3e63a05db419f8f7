// WAL checkpoints run on their own thread, not on the main connection between HTTP requests
// (src/db/checkpointer.ts). Real SQLite files; the App as the service runs it.

import type { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WalCheckpointer } from "../../src/db/checkpointer";
import { openDatabase } from "../../src/db/client";
import { createLogger } from "../../src/lib/logger";
import { createTestApp, type TestApp } from "../helpers/app";

const autocheckpoint = (db: Database) =>
  db.query<{ wal_autocheckpoint: number }, []>("PRAGMA wal_autocheckpoint").get()!.wal_autocheckpoint;
const logger = createLogger("error");

describe("in the running service", () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  test("the main connection leaves checkpoints to the thread (its own threshold is only a fallback)", () => {
    expect(autocheckpoint(t.app.services.backend.db!.$client)).toBe(10_000);
  });

  test("what submissions write to the log reaches the database file without the main connection checkpointing", async () => {
    const file = join(t.dir, "reportgen.db");
    const before = statSync(file).size;
    // ~3 MB: under both SQLite's default threshold (1 000 pages, 4 MB) and ours, so only the thread copies it.
    const template = `<p>${"x".repeat(100_000)}</p>`;
    for (let i = 0; i < 30; i++) {
      const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: template, engine: "raw" } });
      expect(res.status).toBe(202);
    }
    const deadline = Date.now() + 5_000;
    while (statSync(file).size < before + 3_000_000 && Date.now() < deadline) await Bun.sleep(50);
    expect(statSync(file).size).toBeGreaterThan(before + 3_000_000);
  });
});

describe("WalCheckpointer", () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "rg-wal-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("stop() hands checkpoints back to the main connection", async () => {
    const db = openDatabase(join(dir, "a.db")).$client;
    const c = new WalCheckpointer(db, logger);
    await c.start();
    expect(autocheckpoint(db)).toBe(10_000);
    await c.stop();
    expect(autocheckpoint(db)).toBe(1_000);
    db.close();
  });

  /** Commits `row` every 25 ms for `ms`; returns how many distinct states of the database file were seen (a pass writes it). */
  async function passesDuring(name: string, row: string, ms: number): Promise<number> {
    const file = join(dir, name);
    const db = openDatabase(file).$client;
    db.exec("CREATE TABLE t (x TEXT)");
    const c = new WalCheckpointer(db, logger);
    await c.start();
    const insert = db.query("INSERT INTO t VALUES (?)");
    const states = new Set<number>();
    const until = Date.now() + ms;
    while (Date.now() < until) {
      insert.run(row);
      states.add(statSync(file).mtimeMs);
      await Bun.sleep(25);
    }
    await c.stop();
    db.close();
    return states.size;
  }

  test("a small, steady stream of commits is checkpointed about once a second, not every 100 ms", async () => {
    // Each pass costs two fsyncs and a journal commit, each wake-up of the thread CPU (~2-3 ms per
    // invoice at c=1 when it looked every 100 ms). 2.5 s: 2 or 3 passes; every 100 ms it was 25.
    const n = await passesDuring("calm.db", "row", 2_500);
    expect(n).toBeGreaterThanOrEqual(2);
    expect(n).toBeLessThanOrEqual(5);
  });

  test("a flood (a big log at every pass) is checkpointed every 100 ms again", async () => {
    // ~400 KB every 25 ms: each pass finds well over 256 frames, so the next one comes 100 ms later.
    const n = await passesDuring("flood.db", "x".repeat(400_000), 2_500);
    expect(n).toBeGreaterThanOrEqual(10);
  });

  test("a thread that cannot open the database leaves SQLite's own checkpointing on", async () => {
    // The file is deleted under the open connection, so the thread cannot open it.
    const db = openDatabase(join(dir, "gone", "b.db")).$client;
    rmSync(join(dir, "gone"), { recursive: true, force: true });
    const c = new WalCheckpointer(db, logger);
    await c.start();
    expect(autocheckpoint(db)).toBe(1_000);
    await c.stop();
    db.close();
  });
});
