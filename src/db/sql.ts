// The one port every repository talks to: hand-written SQL with `$1`-style parameters, run against
// SQLite (bun:sqlite, here) or PostgreSQL (postgres-js, db/postgres.ts). Repositories write each
// statement once where the two dialects agree and branch on `dialect` only where they do not (the
// queue's claim). Transactions are ambient: inside `tx(fn)`, every statement any repository issues
// from fn (and what it awaits) runs in that transaction, so services can compose repositories.
import type { Database, Statement } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { withoutSync } from "./client";

export type Dialect = "sqlite" | "postgres";

export interface RunOptions {
  /**
   * False for a write that may be lost in a power cut (it survives a process crash all the same):
   * SQLite commits it without waiting for its fsync. Taking a report off the queue is one: lost, it
   * is simply still queued. Ignored by PostgreSQL.
   */
  durable?: boolean;
}

export interface Sql {
  readonly dialect: Dialect;
  all<T>(text: string, params?: readonly unknown[], o?: RunOptions): Promise<T[]>;
  get<T>(text: string, params?: readonly unknown[], o?: RunOptions): Promise<T | undefined>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(text: string, params?: readonly unknown[], o?: RunOptions): Promise<number>;
  /** Runs fn in one transaction; a tx() inside it joins the outer one. */
  tx<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Inside tx(): `undo` runs, once the transaction's outcome is settled, should its request be answered
   * 503 after its COMMIT was sent (PostgreSQL, db/undo.ts). SQLite's commits are local: never.
   */
  ifCommitUnknown(undo: () => Promise<unknown>): void;
  /**
   * Inside tx(): `fn` runs once the outermost transaction has ended, with true when it committed (false:
   * rolled back, or its outcome unknown). Outside one, at once with true (the statement committed alone).
   * `fn` must not throw: it runs as tx() returns or throws, and would stand in for that outcome.
   */
  afterTx(fn: (committed: boolean) => void): void;
  close(): Promise<void>;
}

/** `$1` → `?1`: SQLite's numbered parameters bind by number, whatever order they appear in. */
const toSqlite = (text: string) => text.replace(/\$(\d+)/g, "?$1");

/** SQLite through bun:sqlite: every statement prepared once and cached by its text. */
export class SqliteSql implements Sql {
  readonly dialect = "sqlite";
  private readonly stmts = new Map<string, Statement>();
  /** The open transaction's afterTx() callbacks (its presence: inside a transaction). */
  private readonly inTx = new AsyncLocalStorage<((committed: boolean) => void)[]>();
  /** Settles when the open transaction ends; statements from outside it wait for that (one connection). */
  private open?: Promise<void>;

  constructor(readonly db: Database) {}

  private stmt(text: string): Statement {
    let s = this.stmts.get(text);
    if (!s) {
      s = this.db.prepare(toSqlite(text));
      this.stmts.set(text, s);
    }
    return s;
  }

  /**
   * Outside a transaction, a statement must not run inside the open one (one connection): it waits for
   * it to end. The check and the statement run with no await between them (the loop is inlined at every
   * caller for that reason: returning from a helper would be one more hop, and another transaction
   * could begin in it).
   */
  private busy(): boolean {
    return this.open !== undefined && !this.inTx.getStore();
  }

  private exec<T>(o: RunOptions | undefined, fn: () => T): T {
    // Inside a transaction the commit decides; its statements cannot change the level on their own.
    return o?.durable !== false || this.inTx.getStore() ? fn() : withoutSync(this.db, fn);
  }

  async all<T>(text: string, params: readonly unknown[] = [], o?: RunOptions): Promise<T[]> {
    while (this.busy()) await this.open;
    return this.exec(o, () => this.stmt(text).all(...(params as never[])) as T[]);
  }

  async get<T>(text: string, params: readonly unknown[] = [], o?: RunOptions): Promise<T | undefined> {
    while (this.busy()) await this.open;
    return this.exec(o, () => (this.stmt(text).get(...(params as never[])) as T | null) ?? undefined);
  }

  async run(text: string, params: readonly unknown[] = [], o?: RunOptions): Promise<number> {
    while (this.busy()) await this.open;
    return this.exec(o, () => this.stmt(text).run(...(params as never[])).changes);
  }

  async tx<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTx.getStore()) return fn();
    while (this.open) await this.open;
    let done!: () => void;
    this.open = new Promise<void>((r) => {
      done = r;
    });
    const after: ((committed: boolean) => void)[] = [];
    let committed = false;
    try {
      // IMMEDIATE takes the write lock now: another process (the CLI) cannot make us fail half-way.
      this.db.exec("BEGIN IMMEDIATE");
      const v = await this.inTx.run(after, fn);
      this.db.exec("COMMIT");
      committed = true;
      return v;
    } catch (e) {
      // SQLITE_FULL and friends may have rolled back already.
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw e;
    } finally {
      this.open = undefined;
      done();
      for (const f of after) f(committed);
    }
  }

  ifCommitUnknown(_undo: () => Promise<unknown>): void {}

  afterTx(fn: (committed: boolean) => void): void {
    const after = this.inTx.getStore();
    if (after) after.push(fn);
    else fn(true);
  }

  async close(): Promise<void> {
    for (const s of this.stmts.values()) s.finalize();
    this.stmts.clear();
    this.db.close();
  }
}

/**
 * A parameter holding a JSON array of strings, as a subquery usable after IN: one statement text for
 * any number of values (a `$1, $2, …` list would prepare a new statement per length).
 */
export function jsonList(dialect: Dialect, param: string): string {
  return dialect === "sqlite"
    ? `(SELECT value FROM json_each(${param}))`
    : `(SELECT jsonb_array_elements_text(CAST(${param} AS TEXT)::jsonb))`;
}
