// WAL checkpoints run on their own thread, not on the main connection between HTTP requests
// (src/db/checkpointer.ts). Real SQLite files; the App as the service runs it.

import type { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CheckpointPass, WalCheckpointer } from "../../src/db/checkpointer";
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
    // The thread copies within a second; the deadline only bounds how long a failure takes to show.
    const deadline = Date.now() + 30_000;
    while (statSync(file).size < before + 3_000_000 && Date.now() < deadline) await Bun.sleep(50);
    expect(statSync(file).size).toBeGreaterThan(before + 3_000_000);
  }, 60_000);
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

  /**
   * A database with a running checkpointer that reports every pass of its thread: what the pass found
   * and the interval it scheduled the next one after. The tests check those decisions, not how many
   * passes a stretch of wall-clock time held: a loaded machine delays the passes, never changes them.
   */
  async function observed(name: string) {
    const db = openDatabase(join(dir, name)).$client;
    db.exec("CREATE TABLE t (x TEXT)");
    let waiting: ((p: CheckpointPass) => void) | undefined;
    const c = new WalCheckpointer(db, logger, undefined, (p) => waiting?.(p));
    await c.start();
    const insert = db.query("INSERT INTO t VALUES (?)");
    return {
      /** Commits `rows` in one transaction: a pass sees all of them or none. */
      commit: db.transaction((rows: string[]) => {
        for (const r of rows) insert.run(r);
      }),
      /** The next pass that checkpointed something (`copied`), or the next pass at all. */
      nextPass: (o: { copied: boolean }) =>
        new Promise<CheckpointPass>((resolve) => {
          waiting = (p) => {
            if (o.copied && p.logFrames === 0) return;
            waiting = undefined;
            resolve(p);
          };
        }),
      close: async () => {
        await c.stop();
        db.close();
      },
    };
  }

  test("small commits are checkpointed once a second, not every 100 ms", async () => {
    // Each pass costs two fsyncs and a journal commit, each wake-up of the thread CPU (~2-3 ms per
    // invoice at c=1 when it looked every 100 ms).
    const o = await observed("calm.db");
    try {
      for (let i = 0; i < 3; i++) {
        o.commit(["row"]);
        const p = await o.nextPass({ copied: true });
        expect(p.logFrames).toBeLessThan(256);
        expect(p.nextInMs).toBe(1_000);
      }
    } finally {
      await o.close();
    }
  }, 60_000);

  test("a flood (a big log at every pass) is checkpointed every 100 ms, and once a second again after it", async () => {
    // 2 MB a commit, ~500 frames of 4 KB: well over the 256 that make the next pass come 100 ms later.
    const o = await observed("flood.db");
    try {
      for (let i = 0; i < 3; i++) {
        o.commit(Array.from({ length: 5 }, () => "x".repeat(400_000)));
        const p = await o.nextPass({ copied: true });
        expect(p.logFrames).toBeGreaterThanOrEqual(256);
        expect(p.nextInMs).toBe(100);
      }
      // Nothing committed since: the next pass copies nothing and goes back to once a second.
      expect(await o.nextPass({ copied: false })).toEqual({ logFrames: 0, nextInMs: 1_000 });
    } finally {
      await o.close();
    }
  }, 60_000);

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
