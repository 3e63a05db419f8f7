// PostgreSQL through postgres-js: the same Sql port as SQLite, plus LISTEN for cross-instance wake-ups.
// Timestamps are BIGINT milliseconds since the epoch, as in SQLite: int8 is parsed to a JS number
// (exact up to 2^53, i.e. for ~285,000 years of milliseconds), so repositories read the same shapes
// from both engines and no timezone or sub-millisecond rounding ever enters.
import { AsyncLocalStorage } from "node:async_hooks";
import postgres from "postgres";
import type { RunOptions, Sql } from "./sql";

type Client = postgres.Sql<Record<string, never>>;
type Tx = postgres.TransactionSql<Record<string, never>>;

export interface PostgresOptions {
  /** Pool size; each instance keeps at most this many connections (plus one for LISTEN). */
  max?: number;
  /** Seconds before a connection attempt is given up (an unreachable server fails readiness, it does not hang it). */
  connectTimeout?: number;
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
  private readonly tx$ = new AsyncLocalStorage<Tx>();

  constructor(url: string, o: PostgresOptions = {}) {
    this.client = postgres(url, {
      max: o.max ?? 10,
      connect_timeout: o.connectTimeout ?? 5,
      types: { int8: int8AsNumber } as never,
      onnotice: () => {},
      connection: { application_name: "reportgen" },
    }) as unknown as Client;
  }

  private q(text: string, params: readonly unknown[]) {
    // Statements are prepared once per connection and reused (named by postgres-js).
    return (this.tx$.getStore() ?? this.client).unsafe(text, nulls(params), { prepare: true });
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

  async tx<T>(fn: () => Promise<T>): Promise<T> {
    if (this.tx$.getStore()) return fn();
    return (await this.client.begin((t) => this.tx$.run(t as Tx, fn))) as T;
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
    await this.client.end({ timeout: 5 });
  }
}
