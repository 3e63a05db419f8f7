// Shared by the repository contract (repos-contract.test.ts, repos-contract-queue.test.ts): the two
// backends every contract test runs against, a real SQLite file in a temp data dir and a real
// PostgreSQL 15 (a fresh database per backend instance), and builders for the rows the tests insert.
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BackendWithRepos, openRepos } from "../../src/app/repos";
import type { NewKey } from "../../src/modules/keys/repo";
import type { NewReport } from "../../src/modules/reports/repo";
import { usePostgres } from "../helpers/postgres";

/** The backends the contract runs on: each file runs every one of its tests on each. */
export const BACKENDS = ["sqlite", "postgres"] as const;

/**
 * A PostgreSQL server for the file and `fresh`, which opens a fresh, migrated backend of the kind;
 * everything opened (and every temp dir) is closed and removed after the file's tests.
 */
export function useBackends() {
  const pg = usePostgres();
  const dirs: string[] = [];
  const opened: BackendWithRepos[] = [];
  afterAll(async () => {
    for (const b of opened) await b.close().catch(() => {});
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A fresh, migrated backend of the kind; `url` reopens an existing PostgreSQL database; `migrate: false` leaves it unmigrated. */
  async function fresh(
    kind: "sqlite" | "postgres",
    reuse?: { dir?: string; url?: string; migrate?: boolean },
  ): Promise<BackendWithRepos & { dir: string; url: string }> {
    const dir = reuse?.dir ?? mkdtempSync(join(tmpdir(), "rg-contract-"));
    if (!reuse?.dir) dirs.push(dir);
    const url = kind === "postgres" ? (reuse?.url ?? (await pg().createDatabase())) : "";
    const b = await openRepos({ dataDir: dir, databaseUrl: url }, { migrate: reuse?.migrate });
    opened.push(b);
    return Object.assign(b, { dir, url });
  }

  return { pg, dirs, opened, fresh };
}

let seq = 0;
export const uuid = () => crypto.randomUUID();
export function newReport(accountId: string, o: Partial<NewReport> = {}): NewReport {
  return {
    id: uuid(),
    accountId,
    engine: "raw",
    template: "<p>x</p>",
    data: null,
    options: null,
    createdAt: 1_700_000_000_000 + seq++,
    ...o,
  };
}
export function newKey(accountId: string, o: Partial<NewKey> = {}): NewKey {
  const id = `k${String(seq++).padStart(11, "0")}`;
  return {
    id,
    accountId,
    name: `key ${id}`,
    secretHash: "$argon2id$fake",
    secretCheck: null,
    createdAt: Date.now(),
    scopes: "reports:write reports:read",
    expiresAt: null,
    maxReportsPerDay: null,
    ...o,
  };
}
export const done = (id: string, attempt: number, at = Date.now()) => ({
  id,
  attempt,
  sizeBytes: 10,
  pageCount: 1,
  finishedAt: at,
  expiresAt: at + 60_000,
});
