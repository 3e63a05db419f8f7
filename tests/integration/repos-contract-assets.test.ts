// The assets repository's contract on both backends (a real SQLite file and a real PostgreSQL 15): an
// upsert inserts or replaces in place (id and created_at kept), concurrent uploads of one name leave one
// row, reads and deletes are scoped to the account, pages come newest first, sizes add up per account,
// and an account's deletion takes its assets along.
import { describe, expect, test } from "bun:test";
import type { Asset } from "../../src/modules/assets/model";
import { BACKENDS, useBackends, uuid } from "./repos-contract-harness";

const { fresh } = useBackends();

const asset = (accountId: string, o: Partial<Asset> = {}): Asset => ({
  id: uuid(),
  accountId,
  name: "logo.png",
  type: "image/png",
  sizeBytes: 1234,
  sha256: "a".repeat(64),
  createdAt: 1_732_000_000_000,
  updatedAt: 1_732_000_000_000,
  ...o,
});

for (const kind of BACKENDS) {
  describe(`assets repository on ${kind}`, () => {
    test("insert, then an upsert of the same name replaces type, size and sha256 in place", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const a = asset(acme.id);
      expect(await repos.assets.upsert(a)).toEqual(a);
      const b = asset(acme.id, {
        type: "image/webp",
        sizeBytes: 99,
        sha256: "b".repeat(64),
        createdAt: 2_000_000_000_000,
        updatedAt: 2_000_000_000_000,
      });
      const replaced = await repos.assets.upsert(b);
      expect(replaced).toEqual({ ...b, id: a.id, createdAt: a.createdAt });
      expect(await repos.assets.get(a.id, acme.id)).toEqual(replaced);
      expect(await repos.assets.byName(acme.id, "logo.png")).toEqual(replaced);
      expect(typeof replaced.sizeBytes).toBe("number");
      expect(typeof replaced.createdAt).toBe("number");
    });

    test("concurrent uploads of one name leave one row", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const rows = await Promise.all(
        Array.from({ length: 8 }, (_, i) => repos.assets.upsert(asset(acme.id, { sha256: String(i).repeat(64) }))),
      );
      expect(new Set(rows.map((r) => r.id)).size).toBe(1);
      expect(await repos.assets.list({ accountId: acme.id, limit: 10 })).toHaveLength(1);
    });

    test("reads, byNames, sizes and deletes are the account's own", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const beta = await repos.accounts.ensure("beta");
      const mine = await repos.assets.upsert(asset(acme.id, { name: "a.png", sizeBytes: 10 }));
      await repos.assets.upsert(asset(acme.id, { name: "b.woff2", type: "font/woff2", sizeBytes: 20, sha256: "c".repeat(64) }));
      const theirs = await repos.assets.upsert(asset(beta.id, { name: "a.png", sizeBytes: 1000 }));
      expect(await repos.assets.get(theirs.id, acme.id)).toBeUndefined();
      expect((await repos.assets.byNames(acme.id, ["a.png", "b.woff2", "c.css"])).map((a) => a.name).sort()).toEqual(["a.png", "b.woff2"]);
      expect(await repos.assets.byNames(acme.id, [])).toEqual([]);
      expect(await repos.assets.totalBytes(acme.id)).toBe(30);
      expect(await repos.assets.totalBytes(acme.id, "a.png")).toBe(20);
      expect(await repos.assets.totalBytes(uuid())).toBe(0);
      expect(await repos.assets.shaInUse(acme.id, "a".repeat(64))).toBe(true);
      expect(await repos.assets.shaInUse(beta.id, "c".repeat(64))).toBe(false);
      expect(await repos.assets.delete(theirs.id, acme.id)).toBeUndefined();
      expect(await repos.assets.delete(mine.id, acme.id)).toEqual(mine);
      expect(await repos.assets.get(mine.id, acme.id)).toBeUndefined();
      expect(await repos.assets.get(theirs.id, beta.id)).toEqual(theirs);
    });

    test("pages newest first by (created_at, id), and the type is checked by the database", async () => {
      const { repos, sql } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      for (let i = 0; i < 5; i++) await repos.assets.upsert(asset(acme.id, { name: `f${i}.png`, createdAt: 1000 + (i % 3) }));
      const all = await repos.assets.list({ accountId: acme.id, limit: 10 });
      const sorted = [...all].sort((x, y) => y.createdAt - x.createdAt || (y.id < x.id ? -1 : 1));
      expect(all.map((a) => a.id)).toEqual(sorted.map((a) => a.id));
      const first = await repos.assets.list({ accountId: acme.id, limit: 2 });
      const rest = await repos.assets.list({ accountId: acme.id, limit: 10, after: first.at(-1)! });
      expect([...first, ...rest].map((a) => a.id)).toEqual(all.map((a) => a.id));
      await expect(
        sql.run(
          "INSERT INTO assets (id, account_id, name, type, size_bytes, sha256, created_at, updated_at) VALUES ($1, $2, 'x', 'text/html', 1, 's', 1, 1)",
          [uuid(), acme.id],
        ),
      ).rejects.toThrow();
    });
  });
}
