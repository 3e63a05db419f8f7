// One throwaway S3 (moto_server behind a fault-injecting proxy) per test file; the starter itself is
// tests/support/moto-server.ts, shared with the bench's cluster mode.
import { afterAll, beforeAll } from "bun:test";
import { type S3Server, startS3 } from "../support/moto-server";

export { MOTO_SERVER, type S3Server, startS3 } from "../support/moto-server";

/** One moto for the whole test file: started before its tests, stopped after them. */
export function useS3(bucket?: string): () => S3Server {
  let server: S3Server | undefined;
  beforeAll(async () => {
    server = await startS3(bucket);
  }, 60_000);
  afterAll(() => server?.stop(), 30_000);
  return () => {
    if (!server) throw new Error("useS3: the server is started in beforeAll; use it inside tests or later hooks");
    return server;
  };
}
