// The templates repository's contract on both backends (a real SQLite file and a real PostgreSQL 15):
// versions numbered without gaps or duplicates under concurrency, JSON fields read back as values, pages
// in order, reads scoped to the account, and deletion taking the versions with it but no report.
import { describe, expect, test } from "bun:test";
import { GoldenRepo } from "../../src/modules/templates/golden-repo";
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

for (const kind of BACKENDS) {
  describe(`golden samples repository on ${kind}`, () => {
    test("approval: on keeps the version in use as the approved one, approve moves it, off leaves the latest", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const id = uuid();
      const t = await repos.templates.create(
        { id, accountId: acme.id, name: "A", engine: "raw", createdAt: 1000, requireApproval: true },
        version(),
      );
      expect(t).toMatchObject({ requireApproval: true, approvedVersion: 1 });
      await repos.templates.addVersion(id, acme.id, version({ createdAt: 2000 }));
      expect(await repos.templates.get(id, acme.id)).toMatchObject({ latestVersion: 2, requireApproval: true, approvedVersion: 1 });
      expect(await repos.templates.approve(id, acme.id, 2, 3000)).toBe(true);
      expect(await repos.templates.get(id, acme.id)).toMatchObject({ approvedVersion: 2, updatedAt: 3000 });
      expect(await repos.templates.setRequireApproval(id, acme.id, false, 4000)).toBe(true);
      expect(await repos.templates.get(id, acme.id)).toMatchObject({ requireApproval: false, approvedVersion: 2 });
      // A template without approval turned on gets the latest as its approved version when it is turned on.
      const plain = uuid();
      await repos.templates.create({ id: plain, accountId: acme.id, name: "B", engine: "raw", createdAt: 1000 }, version());
      await repos.templates.addVersion(plain, acme.id, version({ createdAt: 2000 }));
      expect(await repos.templates.setRequireApproval(plain, acme.id, true, 5000)).toBe(true);
      expect(await repos.templates.get(plain, acme.id)).toMatchObject({ requireApproval: true, approvedVersion: 2 });
      const other = await repos.accounts.ensure("other");
      expect(await repos.templates.approve(id, other.id, 1, 6000)).toBe(false);
      expect(await repos.templates.setRequireApproval(id, other.id, true, 6000)).toBe(false);
    });

    test("samples: replaced by name, at most `max` (checked in the insert's transaction), deleted by name; comparisons newest first", async () => {
      const b = await fresh(kind);
      const golden = new GoldenRepo(b.sql);
      const acme = await b.repos.accounts.ensure("acme");
      const other = await b.repos.accounts.ensure("other");
      const id = uuid();
      await b.repos.templates.create({ id, accountId: acme.id, name: "A", engine: "ejs", createdAt: 1000 }, version());
      const sample = (name: string, data = "{}") => ({ id: uuid(), name, data, createdAt: 1000 });
      // Concurrent additions past the limit: exactly `max` are kept.
      const added = await Promise.all(["a", "b", "c", "d", "e"].map((n) => golden.putSample(id, acme.id, sample(n), 3)));
      expect(added.filter((r) => r === "created")).toHaveLength(3);
      expect(added.filter((r) => r === "full")).toHaveLength(2);
      const kept = (await golden.samples(id)).map((s) => s.name);
      expect(kept).toHaveLength(3);
      expect(await golden.putSample(id, acme.id, sample(kept[0]!, '{"n":1}'), 3)).toBe("replaced");
      expect((await golden.samples(id))[0]).toMatchObject({ name: kept[0], data: '{"n":1}' });
      expect(await golden.putSample(id, other.id, sample("x"), 3)).toBeUndefined();
      expect(await golden.deleteSample(id, other.id, kept[0]!)).toBe(false);
      expect(await golden.deleteSample(id, acme.id, kept[0]!)).toBe(true);
      expect(await golden.deleteSample(id, acme.id, kept[0]!)).toBe(false);

      const row = (n: number, at: number) => ({
        id: uuid(),
        templateId: id,
        version: 2,
        base: 1,
        status: "same" as const,
        result: `{"n":${n}}`,
        createdAt: at,
      });
      await golden.saveComparison(row(1, 1000));
      await golden.saveComparison(row(2, 2000));
      expect((await golden.latestComparison(id, acme.id, 2))?.result).toBe('{"n":2}');
      expect(await golden.latestComparison(id, other.id, 2)).toBeUndefined();
      expect(await golden.latestComparison(id, acme.id, 3)).toBeUndefined();
      // Deleting the template takes its samples and comparisons along.
      await b.repos.templates.delete(id, acme.id);
      expect(await golden.samples(id)).toEqual([]);
      expect(await golden.latestComparison(id, acme.id, 2)).toBeUndefined();
    });
  });
}
