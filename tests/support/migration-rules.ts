// The rule that keeps a rolling upgrade safe (docs/cluster.md): migrations expand first and contract
// one release later. While instances of release N and N+1 run side by side on one database, N still
// reads and writes every column N knows; so release N+1 may add (expand) but not take away. A column
// or table is dropped or renamed (contract) only in a release after the one that stopped using it,
// and the migration says so with a marker on its own line:
//
//   -- contract: reports.old_column unused since 1.4.0
//   -- contract: old_table unused since 1.4.0
//
// The check (tests/unit/migration-rules.test.ts) fails a migration that drops or renames a column or
// table without a marker naming it, a marker for something the drizzle schema (src/db/schema.ts, what
// the code uses) still declares, and a marker whose release is not older than this one (package.json).

export interface Contraction {
  /** `table` or `table.column`. */
  target: string;
  statement: string;
}

export interface Marker {
  target: string;
  since: string;
}

const MARKER = /^--\s*contract:\s*([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)\s+unused since\s+(\d+\.\d+\.\d+)\s*$/gim;

/** SQL without its comments (a comment naming DROP is not one). */
function code(sql: string): string {
  return sql.replace(/--[^\n]*/g, "").replace(/\/\*[\s\S]*?\*\//g, "");
}

const ident = `"?([a-z_][a-z0-9_]*)"?`;

/** What a migration drops or renames: tables, and columns as table.column. */
export function contractions(sql: string): Contraction[] {
  const out: Contraction[] = [];
  for (const stmt of code(sql).split(";")) {
    const s = stmt.trim().replace(/\s+/g, " ");
    if (!s) continue;
    const drop = new RegExp(`^DROP TABLE (?:IF EXISTS )?${ident}`, "i").exec(s);
    if (drop) out.push({ target: drop[1]!.toLowerCase(), statement: s });
    const alter = new RegExp(`^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?${ident} (.*)$`, "i").exec(s);
    if (!alter) continue;
    const table = alter[1]!.toLowerCase();
    // One ALTER TABLE may carry several actions (PostgreSQL): look at each.
    for (const action of alter[2]!.split(/,(?![^(]*\))/)) {
      const a = action.trim();
      const dropCol = new RegExp(`^DROP (?:COLUMN )?(?:IF EXISTS )?${ident}`, "i").exec(a);
      if (dropCol && !/^DROP CONSTRAINT/i.test(a) && !/^DROP DEFAULT/i.test(a) && !/^DROP NOT NULL/i.test(a))
        out.push({ target: `${table}.${dropCol[1]!.toLowerCase()}`, statement: s });
      const renameCol = new RegExp(`^RENAME (?:COLUMN )?${ident} TO`, "i").exec(a);
      if (renameCol && !/^RENAME TO/i.test(a) && !/^RENAME CONSTRAINT/i.test(a))
        out.push({ target: `${table}.${renameCol[1]!.toLowerCase()}`, statement: s });
      if (/^RENAME TO/i.test(a)) out.push({ target: table, statement: s });
    }
  }
  return out;
}

export function markers(sql: string): Marker[] {
  return [...sql.matchAll(MARKER)].map((m) => ({ target: m[1]!.toLowerCase(), since: m[2]! }));
}

const semver = (v: string) => v.split(".").map(Number) as [number, number, number];
function older(a: string, b: string): boolean {
  const [x, y] = [semver(a), semver(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return false;
}

/**
 * Problems with one migration, as sentences (empty: it keeps the rule). `schema` holds what the code
 * uses: every table, and every column as table.column; `release` is the version shipping it.
 */
export function checkMigration(name: string, sql: string, schema: ReadonlySet<string>, release: string): string[] {
  const problems: string[] = [];
  const marked = new Map(markers(sql).map((m) => [m.target, m.since]));
  for (const c of contractions(sql)) {
    const since = marked.get(c.target);
    if (since === undefined) {
      problems.push(
        `${name}: "${c.statement}" drops or renames ${c.target} without a contract marker: expand first (add the new, keep the old), stop using the old in one release, then drop it in a later one with "-- contract: ${c.target} unused since <that release>"`,
      );
      continue;
    }
    if (schema.has(c.target))
      problems.push(`${name}: ${c.target} is dropped or renamed, but src/db/schema.ts still declares it: the code still uses it`);
    if (!older(since, release))
      problems.push(
        `${name}: ${c.target} is marked unused since ${since}, which is not older than this release (${release}): contract one release later, not in the release that stops using it`,
      );
  }
  return problems;
}
