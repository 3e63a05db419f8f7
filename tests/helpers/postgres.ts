// One throwaway PostgreSQL per test file (the starter itself is scripts/lib/postgres-server.ts, shared
// with the benches): started before the file's tests, stopped after them.
import { afterAll, beforeAll } from "bun:test";
import { type PgOptions, type PgServer, startPostgres } from "../../scripts/lib/postgres-server";

export { PG_BIN, type PgOptions, type PgServer, startPostgres } from "../../scripts/lib/postgres-server";

/**
 * One server for the whole test file: started before its tests, stopped after them. The getter
 * returns it inside tests (and in beforeAll hooks registered after this call).
 */
export function usePostgres(opts: PgOptions = {}): () => PgServer {
  let server: PgServer | undefined;
  beforeAll(async () => {
    server = await startPostgres(opts);
  }, 60_000);
  afterAll(() => server?.stop(), 30_000);
  return () => {
    if (!server) throw new Error("usePostgres: the server is started in beforeAll; use it inside tests or later hooks");
    return server;
  };
}
