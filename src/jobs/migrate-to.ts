// `reportgen migrate-to`: copies a single-machine install (the SQLite database in the data dir) into
// PostgreSQL. Resumable, and the source is the truth until the switch: a rerun inserts what is missing,
// updates what changed in the source and deletes what the source deleted, but refuses, before writing
// anything, when a row changed on the target since migrate-to wrote it (migrate-to-rows.ts decides which).
// Verified: per table, the row count and a SHA-256 over every row (same order, same values) must match
// on both sides. The link secret and the auth pepper are copied too, so every access key, download link
// and webhook secret keeps working. PDFs are copied by the caller's `copyPdf` (the file store's job),
// each checked by its SHA-256.
import { createHash } from "node:crypto";
import { type Change, COPIED_TABLES, type CopiedTable, CopyRepo, type Key } from "../db/copy-repo";
import type { Backend } from "../db/open";
import { type Conflict, isConflict, type Match, matches, PAGE, pages, rowLine } from "./migrate-to-rows";

export interface MigrateToResult {
  /** Per table: rows in each database afterwards, rows written (new or updated) and deleted by this run. */
  tables: { name: string; source: number; target: number; copied: number; deleted: number; checksum: string }[];
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

  const ledger = await to.ensureLedger();
  const deletions = await check(from, to, ledger.existed);
  // Rows deleted in the source go first, children before parents: a name they held (an asset's, an
  // account's, unique) may have been taken by a new row since.
  for (const t of [...COPIED_TABLES].reverse()) {
    const keys = deletions.get(t.name)!;
    for (let i = 0; i < keys.length; i += PAGE)
      await to.apply(
        t,
        keys.slice(i, i + PAGE).map((key) => ({ key })),
      );
  }

  const tables: MigrateToResult["tables"] = [];
  for (const t of COPIED_TABLES) {
    const n = { insert: 0, update: 0, delete: deletions.get(t.name)!.length };
    let batch: Change[] = [];
    for await (const m of matches(t, from, to)) {
      if (isConflict(m.verdict)) throw new MigrationMismatch(conflictMessage([{ table: t.name, key: m.key, how: m.verdict }], 1));
      if (m.verdict === "same") continue;
      if (m.verdict === "insert" || m.verdict === "update" || m.verdict === "delete") n[m.verdict]++;
      batch.push(changeOf(m));
      if (batch.length >= PAGE) {
        await to.apply(t, batch);
        batch = [];
      }
    }
    if (batch.length > 0) await to.apply(t, batch);
    await to.bumpSequence(t);
    const copied = n.insert + n.update;
    log(`${t.name}: ${copied} row(s) copied${n.update > 0 ? ` (${n.update} updated)` : ""}${n.delete > 0 ? `, ${n.delete} deleted` : ""}`);
    const [a, b] = await Promise.all([digest(from, t), digest(to, t)]);
    if (a.count !== b.count || a.sha256 !== b.sha256) {
      throw new MigrationMismatch(
        `${t.name} differs after the copy: ${a.count} row(s) in SQLite, ${b.count} in PostgreSQL (checksums ${a.sha256.slice(0, 12)} / ${b.sha256.slice(0, 12)}). Something wrote to one of them meanwhile: is the source server running? Stop it and run migrate-to again, it brings the target up to date`,
      );
    }
    tables.push({ name: t.name, source: a.count, target: b.count, copied, deleted: n.delete, checksum: a.sha256 });
  }

  const pdfs = { copied: 0, skipped: 0 };
  if (o.copyPdf) {
    const reports = COPIED_TABLES.find((t) => t.name === "reports")!;
    for await (const r of pages(
      (after) => from.page(reports, after, PAGE),
      (r) => r.id as Key,
    )) {
      if (r.status !== "succeeded") continue;
      if (await o.copyPdf(String(r.id), Number(r.attempts))) pdfs.copied++;
      else pdfs.skipped++;
    }
    log(`PDFs: ${pdfs.copied} copied, ${pdfs.skipped} already there`);
  }
  const assets = { copied: 0, skipped: 0 };
  if (o.copyAsset) {
    const table = COPIED_TABLES.find((t) => t.name === "assets")!;
    for await (const r of pages(
      (after) => from.page(table, after, PAGE),
      (r) => r.id as Key,
    )) {
      if (await o.copyAsset(String(r.account_id), String(r.sha256))) assets.copied++;
      else assets.skipped++;
    }
    log(`assets: ${assets.copied} copied, ${assets.skipped} already there`);
  }
  return { tables, pdfs, assets, ms: Math.round(performance.now() - t0) };
}

/**
 * Read-only, before anything is written: refuses a target changed since the last run, and returns the
 * keys of the rows the source deleted since, per table.
 */
async function check(from: CopyRepo, to: CopyRepo, ledgerExisted: boolean): Promise<Map<string, Key[]>> {
  const conflicts = { count: 0, first: [] as Conflicted[] };
  const deletions = new Map<string, Key[]>(COPIED_TABLES.map((t) => [t.name, []]));
  for (const t of COPIED_TABLES) {
    for await (const m of matches(t, from, to)) {
      if (isConflict(m.verdict)) {
        if (conflicts.count++ < SHOWN) conflicts.first.push({ table: t.name, key: m.key, how: m.verdict });
      } else if (m.verdict === "delete" && !t.derived) {
        // A table kept by triggers is rewritten after the others anyway (and has no unique names).
        deletions.get(t.name)!.push(m.key);
      }
    }
  }
  if (conflicts.count > 0 && !ledgerExisted) {
    throw new MigrationMismatch(
      `${conflicts.count} row(s) in PostgreSQL differ from the source (${conflicts.first.map((c) => `${c.table} ${c.key}`).join("; ")}${conflicts.count > conflicts.first.length ? ", …" : ""}), ` +
        "and this database keeps no record of what was copied into it (it was copied by a reportgen older than that record, or written by instances), so nothing was copied. " +
        "Copy into an empty database (drop and create it, or give another --database-url)",
    );
  }
  if (conflicts.count > 0) throw new MigrationMismatch(conflictMessage(conflicts.first, conflicts.count));
  return deletions;
}

/** Row count and a SHA-256 over every row in key order (values as JSON: the same on both engines). */
async function digest(repo: CopyRepo, t: CopiedTable): Promise<{ count: number; sha256: string }> {
  const h = createHash("sha256");
  let count = 0;
  for await (const r of pages(
    (after) => repo.page(t, after, PAGE),
    (r) => r[t.key] as Key,
  )) {
    h.update(rowLine(t, r));
    count++;
  }
  const n = await repo.count(t);
  if (n !== count) throw new MigrationMismatch(`${t.name}: ${n} rows counted but ${count} read; is something writing to it?`);
  return { count, sha256: h.digest("hex") };
}

interface Conflicted {
  table: string;
  key: Key;
  how: Conflict;
}

/** The rows changed on the target that a refusal names. */
const SHOWN = 5;

/** Names the first rows that changed on the target (of `count`), and what to do. */
function conflictMessage(first: Conflicted[], count: number): string {
  const shown = first.map((c) => `${c.table} ${c.key}: ${c.how}`);
  const more = count > shown.length ? `, and ${count - shown.length} more` : "";
  return (
    `${count} row(s) in PostgreSQL changed since migrate-to copied them (${shown.join("; ")}${more}), so nothing was copied: ` +
    "migrate-to brings the target up to date only where nothing but the source changed. If instances already serve from this database, " +
    "it holds the truth now: do not run migrate-to again. If not, copy into an empty database (drop and create it, or give another --database-url)"
  );
}

/** The write that carries out a match's verdict (see migrate-to-rows.ts). */
function changeOf(m: Match): Change {
  switch (m.verdict) {
    case "insert":
    case "update":
      return { key: m.key, row: m.source, present: m.verdict === "update", sha256: m.s };
    case "record":
      return { key: m.key, ledgerOnly: true, sha256: m.s };
    case "forget":
      return { key: m.key, ledgerOnly: true };
    default:
      return { key: m.key };
  }
}
