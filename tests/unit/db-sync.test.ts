// withoutSync (src/db/client.ts): a write that may skip its fsync runs under synchronous=NORMAL, and
// the connection is back to FULL afterwards, also when the write throws, so every other commit
// (accepted reports, successes) stays durable. Real SQLite file.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, withoutSync } from "../../src/db/client";

const dir = mkdtempSync(join(tmpdir(), "reportgen-sync-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("synchronous is NORMAL inside withoutSync and FULL again after it, thrown or not", () => {
  const db = openDatabase(join(dir, "t.db")).$client;
  const level = () => (db.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
  expect(level()).toBe(2); // FULL
  db.exec("CREATE TABLE t (x INTEGER)");
  expect(withoutSync(db, () => (db.run("INSERT INTO t VALUES (1)"), level()))).toBe(1); // NORMAL
  expect(level()).toBe(2);
  expect(() =>
    withoutSync(db, () => {
      throw new Error("boom");
    }),
  ).toThrow("boom");
  expect(level()).toBe(2);
  expect((db.query("SELECT count(*) AS n FROM t").get() as { n: number }).n).toBe(1);
  db.close();
});
