// PostgreSQL through postgres-js: the same Sql port as SQLite, plus LISTEN for cross-instance wake-ups.
// Timestamps are BIGINT milliseconds since the epoch, as in SQLite: int8 is parsed to a JS number
// (exact up to 2^53, i.e. for ~285,000 years of milliseconds), so repositories read the same shapes
// from both engines and no timezone or sub-millisecond rounding ever enters.
import { AsyncLocalStorage } from "node:async_hooks";
import postgres from "postgres";
import { inRequest } from "../lib/request-scope";
import { databaseTimeout, isDatabaseUnreachable } from "./errors";
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
}

/**
 * The server refuses to commit a report's insert later than this before the request's deadline
 * (migration 0006's trigger measures from the transaction's BEGIN), so a request answered 503 cannot
 * have its report committed afterwards: see tx().
 */
const COMMIT_MARGIN_MS = 150;
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
   * report's insert later than requestTimeout - COMMIT_MARGIN_MS after its BEGIN.
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

  constructor(url: string, o: PostgresOptions = {}) {
    this.requestTimeout = o.requestTimeout ?? 0;
    const commitWithin = o.guardCommits && this.requestTimeout > COMMIT_MARGIN_MS ? this.requestTimeout - COMMIT_MARGIN_MS : 0;
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
        if (isDatabaseUnreachable(e)) this.downSince ||= performance.now();
        throw e;
      },
    );
  }

  private async q(text: string, params: readonly unknown[]) {
    const tx = this.tx$.getStore();
    // A transaction whose request gave up sends nothing more: its callback fails and it rolls back.
    if (tx?.abandoned) throw databaseTimeout();
    // Statements are prepared once per connection and reused (named by postgres-js).
    const query = (tx?.t ?? this.client).unsafe(text, nulls(params), { prepare: true });
    const ms = tx ? 0 : this.deadline();
    if (!ms) return await query;
    if (this.failFast()) throw databaseTimeout();
    return await this.observe(
      within(query, ms, () => {
        // Still waiting for a connection: it is taken off the queue and never sent. One already handed to
        // a connection is left alone: cancelling it opens one more connection to a server that is not
        // answering, and postgres-js 3.4 can then throw from a timer once that socket closes.
        if (!(query as unknown as { state?: unknown }).state) Promise.resolve(query.cancel() as unknown).catch(() => {});
      }),
    );
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
   * Runs fn in one transaction. In a request, the whole transaction has the request's deadline: past
   * it the caller gets database_unavailable, and the transaction can no longer commit. Nothing more is
   * sent in it (a BEGIN answered late finds it abandoned and rolls back), and a COMMIT already sent
   * but held up (a hung server) is refused by the server's guard (migration 0006), which allows a
   * report's insert to commit only up to `requestTimeout - COMMIT_MARGIN_MS` after its BEGIN. The
   * caller waits at least that long after BEGIN was answered, so it never answers 503 for a report
   * that is then committed.
   */
  async tx<T>(fn: () => Promise<T>): Promise<T> {
    if (this.tx$.getStore()) return fn();
    const ms = this.deadline();
    if (!ms) return (await this.client.begin((t) => this.tx$.run({ t: t as Tx, abandoned: false, undos: [] }, fn))) as T;
    if (this.failFast()) throw databaseTimeout();
    const state: TxState = { t: undefined as unknown as Tx, abandoned: false, undos: [] };
    const started = performance.now();
    let begun = 0;
    /** fn is done: COMMIT may be on its way, and from here a failure leaves the outcome unknown. */
    let committing = false;
    const run = this.client.begin(async (t) => {
      if (state.abandoned) throw databaseTimeout();
      begun = performance.now();
      state.t = t as Tx;
      const v = await this.tx$.run(state, fn);
      if (state.abandoned) throw databaseTimeout();
      committing = true;
      return v;
    }) as Promise<T>;
    // Past the deadline, wait still for the server's own limit to pass when BEGIN came back late.
    const giveUp = async () => {
      state.abandoned = true;
      const serverLimit = begun ? begun + ms - COMMIT_MARGIN_MS + 25 - performance.now() : 0;
      if (serverLimit > 0) await Bun.sleep(serverLimit);
    };
    try {
      return await this.observe(within(run, ms, giveUp, started));
    } catch (e) {
      if (committing && state.undos.length && isDatabaseUnreachable(e)) undoAfter(run, state.undos);
      throw e;
    }
  }

  ifCommitUnknown(undo: Undo): void {
    this.tx$.getStore()?.undos.push(undo);
  }

  /**
   * Calls `onMessage` for every NOTIFY on `channel`, on a dedicated connection that postgres-js
   * re-establishes (and re-LISTENs) after the server comes back; `onListen` runs on every (re)connect,
   * so the caller can catch up on what it missed meanwhile.
   */
  async listen(channel: string, onMessage: (payload: string) => void, onListen?: () => void): Promise<{ unlisten: () => Promise<void> }> {
    return this.client.listen(channel, onMessage, onListen);
  }

  async close(): Promise<void> {
    this.downSince = 0;
    await this.client.end({ timeout: 5 });
  }
}

/**
 * p, or a database_unavailable error once `ms` have passed since `from`. onTimeout runs first; until
 * it returns, p's own outcome still counts (a transaction that did commit is reported as committed).
 */
function within<T>(p: PromiseLike<T>, ms: number, onTimeout: () => void | Promise<void>, from = performance.now()): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let late = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const timer = setTimeout(
      () => {
        // From here on, p failing (cancelled, cut off) says nothing new: the answer is the timeout.
        late = true;
        void Promise.resolve(onTimeout()).then(() => settle(() => reject(databaseTimeout())));
      },
      Math.max(0, from + ms - performance.now()),
    );
    p.then(
      (v) => settle(() => resolve(v)),
      (e) => {
        if (!late) settle(() => reject(e));
      },
    );
  });
}
