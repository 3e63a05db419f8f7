// `reportgen migrate-to`: copies a single-machine install (the SQLite database in the data dir) into
// PostgreSQL. Resumable: every row is inserted only if missing, so a run cut short is simply run again.
// Verified: per table, the row count and a SHA-256 over every row (same order, same values) must match
// on both sides. The link secret and the auth pepper are copied too, so every access key, download link
// and webhook secret keeps working. PDFs are copied by the caller's `copyPdf` (the file store's job),
// each checked by its SHA-256.
import { createHash } from "node:crypto";
import { COPIED_TABLES, type CopiedTable, CopyRepo, type Row } from "../db/copy-repo";
import type { Backend } from "../db/open";

const PAGE = 500;

export interface MigrateToResult {
  tables: { name: string; source: number; target: number; copied: number; checksum: string }[];
  pdfs: { copied: number; skipped: number };
  assets: { copied: number; skipped: number };
  ms: number;
}

export interface MigrateToOptions {
  /** The source's link secret and auth pepper (files in its data dir, or --link-secret). */
  secrets: { linkSecret: string; authPepper: string };
  /** Copies one report's PDF to the target file store; resolves to whether it copied (false: already there, same SHA-256). */
  copyPdf?: (reportId: string, attempt: number) => Promise<boolean>;
  /** Copies one asset's bytes to the target store; resolves to whether it copied (false: already there). */
  copyAsset?: (accountId: string, sha256: string) => Promise<boolean>;
  log?: (line: string) => void;
}

export class MigrationMismatch extends Error {}

/** Runs (or resumes) the copy and verifies it; throws MigrationMismatch when the target differs. */
export async function migrateTo(source: Backend, target: Backend, o: MigrateToOptions): Promise<MigrateToResult> {
  if (source.kind !== "sqlite" || target.kind !== "postgres") throw new Error("migrate-to copies a SQLite install into PostgreSQL");
  const t0 = performance.now();
  const log = o.log ?? (() => {});
  const from = new CopyRepo(source.sql);
  const to = new CopyRepo(target.sql);

  // Secrets first: a target already serving with other secrets would invalidate every key's check value and every link.
  for (const [name, value] of [
    ["link-secret", o.secrets.linkSecret],
    ["auth-pepper", o.secrets.authPepper],
  ] as const) {
    const stored = await target.secrets!.getOrCreate(name, () => value);
    if (stored !== value) {
      throw new MigrationMismatch(
        `the target database already has another ${name}: it has been used by another install. Migrate into an empty database`,
      );
    }
  }

  const tables: MigrateToResult["tables"] = [];
  for (const t of COPIED_TABLES) {
    let copied = 0;
    for await (const rows of pagesOf(from, t)) if (rows.length > 0) copied += await to.insertMissing(t, rows);
    await to.bumpSequence(t);
    log(`${t.name}: ${copied} row(s) copied`);
    const [a, b] = await Promise.all([digest(from, t), digest(to, t)]);
    if (a.count !== b.count || a.sha256 !== b.sha256) {
      throw new MigrationMismatch(
        `${t.name} differs after the copy: ${a.count} row(s) in SQLite, ${b.count} in PostgreSQL (checksums ${a.sha256.slice(0, 12)} / ${b.sha256.slice(0, 12)}). Was the target used meanwhile, or the source server still running? Stop it and run migrate-to again`,
      );
    }
    tables.push({ name: t.name, source: a.count, target: b.count, copied, checksum: a.sha256 });
  }

  const pdfs = { copied: 0, skipped: 0 };
  if (o.copyPdf) {
    const reports = COPIED_TABLES.find((t) => t.name === "reports")!;
    for await (const rows of pagesOf(from, reports)) {
      for (const r of rows) {
        if (r.status !== "succeeded") continue;
        if (await o.copyPdf(String(r.id), Number(r.attempts))) pdfs.copied++;
        else pdfs.skipped++;
      }
    }
    log(`PDFs: ${pdfs.copied} copied, ${pdfs.skipped} already there`);
  }
  const assets = { copied: 0, skipped: 0 };
  if (o.copyAsset) {
    const table = COPIED_TABLES.find((t) => t.name === "assets")!;
    for await (const rows of pagesOf(from, table)) {
      for (const r of rows) {
        if (await o.copyAsset(String(r.account_id), String(r.sha256))) assets.copied++;
        else assets.skipped++;
      }
    }
    log(`assets: ${assets.copied} copied, ${assets.skipped} already there`);
  }
  return { tables, pdfs, assets, ms: Math.round(performance.now() - t0) };
}

/** Row count and a SHA-256 over every row in key order (values as JSON: the same on both engines). */
async function digest(repo: CopyRepo, t: CopiedTable): Promise<{ count: number; sha256: string }> {
  const h = createHash("sha256");
  let count = 0;
  for await (const rows of pagesOf(repo, t)) {
    for (const r of rows) h.update(`${JSON.stringify(t.columns.map((c) => r[c] ?? null))}\n`);
    count += rows.length;
  }
  const n = await repo.count(t);
  if (n !== count) throw new MigrationMismatch(`${t.name}: ${n} rows counted but ${count} read; is something writing to it?`);
  return { count, sha256: h.digest("hex") };
}

/** The table's rows in `repo`, PAGE at a time in key order; the last page is short (empty for an empty table). */
async function* pagesOf(repo: CopyRepo, t: CopiedTable): AsyncGenerator<Row[]> {
  let after: string | number | null = null;
  for (;;) {
    const rows: Row[] = await repo.page(t, after, PAGE);
    yield rows;
    if (rows.length < PAGE) return;
    after = rows.at(-1)![t.key] as string | number;
  }
}
