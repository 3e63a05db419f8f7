// The throwaway PostgreSQL and S3 that the cluster tests stand on: they start, serve, go down and
// come back with their data, and leave nothing running behind them.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { S3Client } from "bun";
import { PG_BIN, usePostgres } from "../helpers/postgres";
import { useS3 } from "../helpers/s3";

const psql = (url: string, sql: string) => {
  const p = Bun.spawnSync([join(PG_BIN, "psql"), url, "-XAtqc", sql]);
  return { code: p.exitCode, out: p.stdout.toString().trim(), err: p.stderr.toString() };
};

describe("PostgreSQL helper", () => {
  const pg = usePostgres();

  test("a fresh database per call, on a server that keeps its data across a restart", async () => {
    const url = await pg().createDatabase();
    expect(new URL(url).hostname).toBe("127.0.0.1");
    expect(psql(url, "create table t (v int); insert into t values (42)").code).toBe(0);
    expect(psql(url, "select v from t").out).toBe("42");
    expect(Number(psql(pg().url, "select current_setting('server_version_num')::int / 10000").out)).toBeGreaterThanOrEqual(15);
    if (!pg().owned) return;

    await pg().down();
    const refused = psql(url, "select 1");
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/connection refused|could not connect/i);
    await pg().up();
    expect(psql(url, "select v from t").out).toBe("42");

    await pg().restart();
    expect(psql(url, "select v from t").out).toBe("42");
  });

  test("stop() ends the server and removes its files", async () => {
    const { startPostgres } = await import("../helpers/postgres");
    const own = await startPostgres();
    if (!own.owned) return;
    const dataDir = psql(own.url, "show data_directory").out;
    expect(existsSync(dataDir)).toBe(true);
    await own.stop();
    expect(existsSync(dataDir)).toBe(false);
    expect(psql(own.url, "select 1").code).not.toBe(0);
  });
});

describe("S3 helper", () => {
  const s3 = useS3();
  // moto refuses anonymous reads of private objects: talk to it as a client would, signed.
  const client = (endpoint = s3().endpoint) =>
    new S3Client({
      endpoint,
      bucket: s3().bucket,
      accessKeyId: s3().env.AWS_ACCESS_KEY_ID,
      secretAccessKey: s3().env.AWS_SECRET_ACCESS_KEY,
    });

  test("objects written through the proxy; down, refused writes and up again keep them", async () => {
    const c = client();
    await c.write("a.txt", "hello");
    expect(await c.file("a.txt").text()).toBe("hello");

    await s3().down();
    await expect(c.file("a.txt").text()).rejects.toThrow();
    // The objects are still in moto while the proxy refuses service.
    expect(await client(s3().directEndpoint).file("a.txt").text()).toBe("hello");

    s3().up();
    s3().refuseWrites(403);
    await expect(c.write("b.txt", "x")).rejects.toThrow(/AccessDenied|Access Denied/);
    expect(await c.file("a.txt").text()).toBe("hello");

    s3().up();
    await c.write("b.txt", "x");
    expect(await c.file("b.txt").text()).toBe("x");
    expect(s3().requests.filter((r) => r.method === "PUT").length).toBe(3);
  });

  test("a large body streams through the proxy unchanged", async () => {
    const c = client();
    const body = crypto.getRandomValues(new Uint8Array(3 * 1024 * 1024));
    await c.write("big.bin", body);
    const back = new Uint8Array(await c.file("big.bin").arrayBuffer());
    expect(Bun.hash(back)).toBe(Bun.hash(body));
  });
});
