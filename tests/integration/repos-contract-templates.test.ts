// The templates repository's contract on both backends (a real SQLite file and a real PostgreSQL 15):
// versions numbered without gaps or duplicates under concurrency, JSON fields read back as values, pages
// in order, reads scoped to the account, and deletion taking the versions with it but no report.
import { describe, expect, test } from "bun:test";
import type { NewVersion } from "../../src/modules/templates/repo";
import { BACKENDS, newReport, useBackends, uuid } from "./repos-contract-harness";

const { fresh } = useBackends();

const version = (o: Partial<NewVersion> = {}): NewVersion => ({
  id: uuid(),
  htmlTemplate: "<p><%= a %></p>",
  dataSchema: null,
  sampleData: null,
  options: null,
  warnings: "[]",
  createdAt: 1_732_000_000_123,
  ...o,
});

for (const kind of BACKENDS) {
  describe(`templates repository on ${kind}`, () => {
    test("create, add versions, read a version with its JSON fields as values, list the versions newest first", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const id = uuid();
      const t = await repos.templates.create({ id, accountId: acme.id, name: "Invoice", engine: "ejs", createdAt: 1000 }, version());
      const summary = { id, accountId: acme.id, name: "Invoice", engine: "ejs", latestVersion: 1, createdAt: 1000, updatedAt: 1000 };
      expect(t).toEqual({ ...summary, engine: "ejs" as const, requireApproval: false, approvedVersion: null });
      const v2 = version({
        htmlTemplate: "<p>2</p>",
        dataSchema: JSON.stringify({ type: "object" }),
        sampleData: JSON.stringify({ a: "ü" }),
        options: JSON.stringify({ format: "A5" }),
        warnings: JSON.stringify([{ code: "sample_render", message: "1 page", pages: 1 }]),
        createdAt: 2000,
      });
      expect(await repos.templates.addVersion(id, acme.id, v2)).toBe(2);
      expect(await repos.templates.get(id, acme.id)).toEqual({ ...t, latestVersion: 2, updatedAt: 2000 });
      expect(await repos.templates.version(id, acme.id, 2)).toEqual({
        templateId: id,
        version: 2,
        htmlTemplate: "<p>2</p>",
        dataSchema: { type: "object" },
        sampleData: { a: "ü" },
        options: { format: "A5" },
        warnings: [{ code: "sample_render", message: "1 page", pages: 1 }],
        createdAt: 2000,
      });
      expect((await repos.templates.version(id, acme.id, 1))?.dataSchema).toBeNull();
      expect(await repos.templates.version(id, acme.id, 3)).toBeUndefined();
      expect(await repos.templates.versions(id)).toEqual([
        { version: 2, createdAt: 2000 },
        { version: 1, createdAt: 1_732_000_000_123 },
      ]);
    });

    test("concurrent versions get consecutive numbers", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const id = uuid();
      await repos.templates.create({ id, accountId: acme.id, name: "T", engine: "raw", createdAt: 1 }, version());
      const ns = await Promise.all(Array.from({ length: 10 }, () => repos.templates.addVersion(id, acme.id, version())));
      expect([...ns].sort((a, b) => a! - b!)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect((await repos.templates.get(id, acme.id))?.latestVersion).toBe(11);
    });

    test("another account reads, versions and deletes nothing; listing pages in order", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const beta = await repos.accounts.ensure("beta");
      const ids: string[] = [uuid(), uuid(), uuid()];
      for (const [i, id] of ids.entries())
        await repos.templates.create({ id, accountId: acme.id, name: `T${i}`, engine: "raw", createdAt: 100 + i }, version());
      const id = ids[0]!;
      expect(await repos.templates.get(id, beta.id)).toBeUndefined();
      expect(await repos.templates.version(id, beta.id, 1)).toBeUndefined();
      expect(await repos.templates.addVersion(id, beta.id, version())).toBeUndefined();
      expect(await repos.templates.delete(id, beta.id)).toBe(false);
      expect(await repos.templates.list({ accountId: beta.id, limit: 10 })).toEqual([]);
      const first = await repos.templates.list({ accountId: acme.id, limit: 2 });
      expect(first.map((x) => x.id)).toEqual([ids[2]!, ids[1]!]);
      const next = await repos.templates.list({
        accountId: acme.id,
        limit: 2,
        after: { createdAt: first[1]!.createdAt, id: first[1]!.id },
      });
      expect(next.map((x) => x.id)).toEqual([ids[0]!]);
    });

    test("delete takes the versions along; a report made from the template keeps its template id and version", async () => {
      const { repos, sql } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const id = uuid();
      await repos.templates.create({ id, accountId: acme.id, name: "T", engine: "raw", createdAt: 1 }, version());
      const report = newReport(acme.id, { templateId: id, templateVersion: 1 });
      await repos.reports.insert(report);
      expect(await repos.templates.delete(id, acme.id)).toBe(true);
      expect(await repos.templates.delete(id, acme.id)).toBe(false);
      expect((await sql.get<{ n: number }>("SELECT count(*) AS n FROM template_versions WHERE template_id = $1", [id]))!.n).toBe(0);
      expect(await repos.reports.get(report.id, acme.id)).toMatchObject({ templateId: id, templateVersion: 1 });
    });
  });
}
