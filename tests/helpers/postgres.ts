// One throwaway PostgreSQL per test file (the starter itself is tests/support/postgres-server.ts, shared
// with the benches): started before the file's tests, stopped after them.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PgOptions, type PgServer, startPostgres } from "../support/postgres-server";
import { createTestApp, type TestApp } from "./app";

export { PG_BIN, type PgOptions, type PgServer, startPostgres } from "../support/postgres-server";

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

export interface PostgresPair {
  /** Renders nothing and takes the requests. */
  api: TestApp;
  /** Renders with real Chromium. */
  worker: TestApp;
  /** Their database. */
  url: string;
  /** Their shared data dir (its reports folder stands in for the bucket). */
  dir: string;
}

/**
 * Two Apps on one new database of `pg`, in one test process, sharing a data dir: the cluster's two
 * roles. Started before the file's tests (the api first: the worker then finds the schema migrated
 * and the shared secrets made), closed after them.
 */
export function usePostgresPair(pg: () => PgServer): () => PostgresPair {
  let pair: PostgresPair | undefined;
  beforeAll(async () => {
    const url = await pg().createDatabase();
    const dir = mkdtempSync(join(tmpdir(), "rg-pg-pair-"));
    const api = await createTestApp({ dir, config: { databaseUrl: url } });
    const worker = await createTestApp({ dir, render: true, config: { databaseUrl: url } });
    pair = { api, worker, url, dir };
  }, 120_000);
  afterAll(async () => {
    await pair?.worker.close();
    await pair?.api.close();
    if (pair) rmSync(pair.dir, { recursive: true, force: true });
  });
  return () => {
    if (!pair) throw new Error("usePostgresPair: the Apps start in beforeAll; use them inside tests");
    return pair;
  };
}
