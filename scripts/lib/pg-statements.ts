// PostgreSQL statements per report, from pg_stat_statements: what scripts/bench-statements.ts and the
// bench's cluster mode (scripts/bench-cluster.ts) both count. The server must be started with
// STATEMENT_SETTINGS (the library is loaded at start, top-level statements only); statementCounter()
// creates the extension in the database and counts that database's statements between reset() and read().
//
// A round trip is one statement, BEGIN and COMMIT included: postgres-js sends each extended-query
// statement with its own Sync. "Statements" leaves the transaction control out.
import postgres from "postgres";

/** startPostgres({ settings }) for a server whose statements can be counted. */
export const STATEMENT_SETTINGS: Record<string, string> = {
  shared_preload_libraries: "pg_stat_statements",
  "pg_stat_statements.track": "top",
  "pg_stat_statements.max": "5000",
};

/** The statement texts that are transaction control: round trips, not statements. */
const CONTROL = /^(begin|commit|rollback|savepoint|release)\b/i;

export interface StatementRow {
  /** The normalised text ($1, $2 for constants), whitespace collapsed. */
  query: string;
  calls: number;
}

export interface StatementCounts {
  statements: number;
  roundTrips: number;
  /** By statement text, most called first. */
  rows: StatementRow[];
}

export interface StatementCounter {
  /** Forgets every count so far, on the whole server (the counts read are this database's only). */
  reset(): Promise<void>;
  /** The database's counts since the last reset, the counter's own queries left out. */
  read(): Promise<StatementCounts>;
  close(): Promise<void>;
}

/** A counter for the database at `databaseUrl`, on a server started with STATEMENT_SETTINGS. */
export async function statementCounter(databaseUrl: string): Promise<StatementCounter> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  } catch (e) {
    await sql.end({ timeout: 1 });
    throw new Error(`pg_stat_statements is not available (start PostgreSQL with STATEMENT_SETTINGS): ${(e as Error).message}`);
  }
  const dbid = Number((await sql.unsafe("SELECT oid FROM pg_database WHERE datname = current_database()"))[0]!.oid);
  return {
    reset: async () => {
      await sql.unsafe("SELECT pg_stat_statements_reset()");
    },
    read: async () => {
      const rows = (
        (await sql.unsafe(
          `SELECT query, calls::int AS calls FROM pg_stat_statements WHERE dbid = $1 AND query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC`,
          [dbid],
        )) as unknown as StatementRow[]
      ).map((r) => ({ query: r.query.replace(/\s+/g, " ").trim(), calls: r.calls }));
      return {
        roundTrips: rows.reduce((a, r) => a + r.calls, 0),
        statements: rows.filter((r) => !CONTROL.test(r.query)).reduce((a, r) => a + r.calls, 0),
        rows,
      };
    },
    close: () => sql.end({ timeout: 1 }),
  };
}
