// PostgreSQL through postgres-js: the same Sql port as SQLite, plus LISTEN for cross-instance wake-ups.
// Timestamps are BIGINT milliseconds since the epoch, as in SQLite: int8 is parsed to a JS number
// (exact up to 2^53, i.e. for ~285,000 years of milliseconds), so repositories read the same shapes
// from both engines and no timezone or sub-millisecond rounding ever enters.
import { AsyncLocalStorage } from "node:async_hooks";
import postgres from "postgres";
import { inRequest } from "../lib/request-scope";
import { BUSY_WAIT_MS, Liveness, within } from "./deadline";
import { DATABASE_TIMEOUT, databaseTimeout, isDatabaseUnreachable } from "./errors";
import type { RunOptions, Sql } from "./sql";
import { type Undo, undoAfter } from "./undo";

type Client = postgres.Sql<Record<string, never>>;
type Tx = postgres.TransactionSql<Record<string, never>>;
/** A transaction, and whether its caller has given up on it (then nothing more is sent in it). */
interface TxState {
  t: Tx;
  abandoned: boolean;
  /** What to undo should the commit's outcome stay unknown to the request (db/undo.ts). */
  undos: Undo[];
  /** What runs once the transaction has ended (Sql.afterTx). */
  after: ((committed: boolean) => void)[];
}

/** While the database is known to be down, one request statement in this interval probes it; the rest fail at once. */
const PROBE_EVERY_MS = 200;

export interface PostgresOptions {
  /** Pool size; each instance keeps at most this many connections (plus one for LISTEN). */
  max?: number;
  /** Seconds before a connection attempt is given up (an unreachable server fails readiness, it does not hang it). */
  connectTimeout?: number;
  /**
   * Milliseconds a statement, or a transaction, run while serving a request may take before the
   * request gives up with database_unavailable (503); 0: no deadline. Background work never has one.
   */
  requestTimeout?: number;
  /**
   * Set on the connections of an instance that serves requests: the server then refuses to commit a
   * report's insert later than BUSY_WAIT_MS after its BEGIN (migration 0006), when no request waits
   * for it any more.
   */
  guardCommits?: boolean;
}

const int8AsNumber = {
  to: 20,
  from: [20],
  serialize: (x: number | bigint) => String(x),
  parse: (x: string) => Number(x),
};

const nulls = (params: readonly unknown[]) => params.map((p) => (p === undefined ? null : p)) as postgres.ParameterOrJSON<never>[];

export class PostgresSql implements Sql {
  readonly dialect = "postgres";
  readonly client: Client;
  private readonly tx$ = new AsyncLocalStorage<TxState>();
  private readonly requestTimeout: number;
  /** When a request's statement last found the database unreachable; 0 once a statement succeeds. */
  private downSince = 0;
  private lastProbe = 0;
  private readonly live = new Liveness();

  constructor(url: string, o: PostgresOptions = {}) {
    this.requestTimeout = o.requestTimeout ?? 0;
    const commitWithin = o.guardCommits && this.requestTimeout > 0 ? BUSY_WAIT_MS : 0;
    this.client = postgres(url, {
      max: o.max ?? 10,
      connect_timeout: o.connectTimeout ?? 5,
      // postgres-js's default waits up to 20 s between attempts after repeated failures (its count is
      // shared by the pool): once PostgreSQL is back, the instance would answer 503 for that long.
      backoff: (retries: number) => Math.min(0.05 * (retries + 1), 1),
      types: { int8: int8AsNumber } as never,
      onnotice: () => {},
      // A custom setting in the startup packet: read by the commit guard's trigger (migration 0006).
      connection: { application_name: "reportgen", ...(commitWithin ? { "reportgen.commit_within": String(commitWithin) } : {}) },
    }) as unknown as Client;
  }

  /** The deadline of a statement or transaction run now: the request's, or none for background work. */
  private deadline(): number {
    return this.requestTimeout > 0 && inRequest() ? this.requestTimeout : 0;
  }

  /**
   * While the database is known to be down, a request fails at once rather than waiting out its
   * deadline, except one probe every PROBE_EVERY_MS, whose success closes the circuit.
   */
  private failFast(): boolean {
    if (!this.downSince) return false;
    const now = performance.now();
    if (now - this.lastProbe >= PROBE_EVERY_MS) {
      this.lastProbe = now;
      return false;
    }
    return true;
  }

  /** Notes how a request's database work ended, for failFast(). */
  private observe<T>(p: Promise<T>): Promise<T> {
    return p.then(
      (v) => {
        this.downSince = 0;
        return v;
      },
      (e) => {
        // Only a refused or cut connection says the database is down: a deadline can also pass on a
        // busy machine, and failing every request for it would turn a slow moment into an outage.
        if (isDatabaseUnreachable(e) && (e as { code?: unknown }).code !== DATABASE_TIMEOUT) this.downSince ||= performance.now();
        throw e;
      },
    );
  }

  private async q(text: string, params: readonly unknown[]) {
    const tx = this.tx$.getStore();
    // A transaction whose request gave up sends nothing more: its callback fails and it rolls back.
    if (tx?.abandoned) throw databaseTimeout();
    const ms = tx ? 0 : this.deadline();
    if (ms && this.failFast()) throw databaseTimeout();
    // Statements are prepared once per connection and reused (named by postgres-js).
    const query = (tx?.t ?? this.client).unsafe(text, nulls(params), { prepare: true });
    if (!ms) {
      const rows = await query;
      this.live.answered();
      return rows;
    }
    const rows = await this.observe(
      within(query, ms, this.live, () => {
        // Still waiting for a connection: it is taken off the queue and never sent. One already handed to
        // a connection is left alone: cancelling it opens one more connection to a server that is not
        // answering, and postgres-js 3.4 can then throw from a timer once that socket closes.
        if (!(query as unknown as { state?: unknown }).state) Promise.resolve(query.cancel() as unknown).catch(() => {});
      }),
    );
    this.live.answered();
    return rows;
  }

  async all<T>(text: string, params: readonly unknown[] = [], _o?: RunOptions): Promise<T[]> {
    return [...(await this.q(text, params))] as T[];
  }

  async get<T>(text: string, params: readonly unknown[] = [], _o?: RunOptions): Promise<T | undefined> {
    return ((await this.q(text, params))[0] as T | undefined) ?? undefined;
  }

  async run(text: string, params: readonly unknown[] = [], _o?: RunOptions): Promise<number> {
    return (await this.q(text, params)).count ?? 0;
  }

  /**
   * Runs fn in one transaction. In a request, the transaction has the request's deadline (deadline.ts):
   * past it the caller gets database_unavailable and nothing more is sent in it (a BEGIN answered late
   * finds it abandoned and rolls back). Once fn is done the COMMIT may be on its way: a request that
   * gives up then (or whose connection is cut) cannot know whether it committed, so what fn's
   * repositories registered with ifCommitUnknown is undone once the outcome is settled (db/undo.ts).
   */
  async tx<T>(fn: () => Promise<T>): Promise<T> {
    if (this.tx$.getStore()) return fn();
    const state: TxState = { t: undefined as unknown as Tx, abandoned: false, undos: [], after: [] };
    let committed = false;
    try {
      const v = await this.outerTx(state, fn);
      committed = true;
      return v;
    } finally {
      for (const f of state.after) f(committed);
    }
  }

  private async outerTx<T>(state: TxState, fn: () => Promise<T>): Promise<T> {
    const ms = this.deadline();
    if (!ms)
      return (await this.client.begin((t) => {
        state.t = t as Tx;
        return this.tx$.run(state, fn);
      })) as T;
    if (this.failFast()) throw databaseTimeout();
    let committing = false;
    const run = this.client.begin(async (t) => {
      this.live.answered();
      if (state.abandoned) throw databaseTimeout();
      state.t = t as Tx;
      const v = await this.tx$.run(state, fn);
      if (state.abandoned) throw databaseTimeout();
      committing = true;
      return v;
    }) as Promise<T>;
    try {
      const v = await this.observe(
        within(run, ms, this.live, () => {
          state.abandoned = true;
        }),
      );
      this.live.answered();
      return v;
    } catch (e) {
      if (committing && state.undos.length && isDatabaseUnreachable(e)) undoAfter(run, state.undos);
      throw e;
    }
  }

  ifCommitUnknown(undo: Undo): void {
    this.tx$.getStore()?.undos.push(undo);
  }

  afterTx(fn: (committed: boolean) => void): void {
    const state = this.tx$.getStore();
    if (state) state.after.push(fn);
    else fn(true);
  }

  /**
   * Calls `onMessage` for every NOTIFY on `channel`, on a dedicated connection that postgres-js
   * re-establishes (and re-LISTENs) after the server comes back; `onListen` runs on every (re)connect,
   * so the caller can catch up on what it missed meanwhile.
   */
  async listen(channel: string, onMessage: (payload: string) => void, onListen?: () => void): Promise<{ unlisten: () => Promise<void> }> {
    return this.client.listen(channel, onMessage, onListen);
  }

  /** Ends the pool; statements still running get `timeoutS` seconds to finish. */
  async close(timeoutS = 5): Promise<void> {
    this.downSince = 0;
    await this.client.end({ timeout: timeoutS });
  }
}
