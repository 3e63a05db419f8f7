// What `migrate-to` copies, read from the drizzle declaration (db/schema/) instead of listed by hand:
// every declared table with every declared column, in foreign-key order, except the tables the
// declaration marks with notCopied() (and the reason). A table marked keptByTriggers() is copied last
// and replaces what the target's triggers wrote while the others were copied. So a column added to the
// migrations must be declared (tests/unit/schema*.test.ts), and once declared it is copied.
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";

export interface CopiedTable {
  name: string;
  /** The primary key: pages are read in its order, and rows of both sides are matched by it. */
  key: string;
  /** Every declared column, in declaration order. */
  columns: string[];
  /** An INTEGER id that PostgreSQL numbers with a sequence: moved past the copied ids afterwards. */
  serial?: boolean;
  /**
   * Kept by triggers on a table copied before it (usage_daily, by the reports triggers): the copy of
   * those rows has already written some of these on the target, so the source's rows replace them.
   */
  derived?: boolean;
}

type Mark = { notCopied: string } | { keptByTriggers: string };
const marks = new WeakMap<SQLiteTable, Mark>();

/** Marks a declared table that migrate-to leaves behind; `why` says why it needs no copy. */
export function notCopied<T extends SQLiteTable>(table: T, why: string): T {
  marks.set(table, { notCopied: why });
  return table;
}

/** Marks a declared table whose rows triggers on other tables keep (`why` names them): copied last, overwriting. */
export function keptByTriggers<T extends SQLiteTable>(table: T, why: string): T {
  marks.set(table, { keptByTriggers: why });
  return table;
}

/** Why migrate-to leaves `table` behind, or undefined when it copies it. */
export function whyNotCopied(table: SQLiteTable): string | undefined {
  const m = marks.get(table);
  return m && "notCopied" in m ? m.notCopied : undefined;
}

/** The drizzle tables among a module's exports (`import * as schema`). */
export function declaredTables(module: Record<string, unknown>): SQLiteTable[] {
  return Object.values(module).filter(
    (v): v is SQLiteTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v,
  );
}

/**
 * The tables to copy, parents before the tables whose foreign keys name them (ties by name, so the
 * order is stable), tables kept by triggers last.
 */
export function copiedTablesOf(tables: SQLiteTable[]): CopiedTable[] {
  const copied = tables.filter((t) => whyNotCopied(t) === undefined).map((t) => ({ t, cfg: getTableConfig(t) }));
  const names = new Set(copied.map((c) => c.cfg.name));
  const parents = new Map(
    copied.map(({ cfg }) => [
      cfg.name,
      new Set(cfg.foreignKeys.map((fk) => getTableConfig(fk.reference().foreignTable).name).filter((p) => p !== cfg.name && names.has(p))),
    ]),
  );
  const order: CopiedTable[] = [];
  const placed = new Set<string>();
  const pending = [...copied].sort((a, b) => {
    const da = marks.get(a.t) ? 1 : 0;
    const db = marks.get(b.t) ? 1 : 0;
    return da - db || (a.cfg.name < b.cfg.name ? -1 : 1);
  });
  while (pending.length > 0) {
    const i = pending.findIndex(({ cfg }) => [...parents.get(cfg.name)!].every((p) => placed.has(p)));
    if (i < 0) throw new Error(`the foreign keys of ${pending.map((p) => p.cfg.name).join(", ")} form a cycle: no copy order`);
    const [{ t, cfg }] = pending.splice(i, 1) as [(typeof copied)[number]];
    const keys = cfg.columns.filter((c) => c.primary);
    if (keys.length !== 1) throw new Error(`${cfg.name}: migrate-to copies tables with a one-column primary key`);
    const key = keys[0]!;
    order.push({
      name: cfg.name,
      key: key.name,
      columns: cfg.columns.map((c) => c.name),
      ...(key.getSQLType() === "integer" ? { serial: true } : {}),
      ...(marks.get(t) ? { derived: true } : {}),
    });
    placed.add(cfg.name);
  }
  return order;
}
