// A throwaway S3 for the tests and the bench's cluster mode: moto_server (moto 5, in memory) on a free
// loopback port, with a bucket, behind a small forwarding proxy that the test controls. The proxy is how
// a test takes the bucket away without losing what is in it (moto keeps objects in memory only, so
// stopping moto itself would empty the bucket): down() refuses connections, refuseWrites() answers
// writes with an S3 error, up() restores service. Clients are given the proxy's address as the endpoint
// (env); the bench, which injects no fault, gives its instances moto's own (directEnv), so that no
// proxy in its own process sits on the way. Tests use it through tests/helpers/s3.ts (one per file).
// With `tls`, moto speaks https with a certificate the caller made (the delivery bench: a bucket as real
// ones are, whose clients must trust the caller's CA).
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../src/lib/ports";

/** moto_server (moto 5, from pip): REPORTGEN_TEST_MOTO_SERVER, else on PATH, else pyenv's shim. */
export const MOTO_SERVER = process.env.REPORTGEN_TEST_MOTO_SERVER ?? findMoto();

function findMoto(): string {
  const onPath = Bun.which("moto_server");
  if (onPath) return onPath;
  const shim = join(homedir(), ".pyenv", "shims", "moto_server");
  if (existsSync(shim)) return shim;
  throw new Error("moto_server not found: install it (pip install 'moto[server]==5.2.1') or set REPORTGEN_TEST_MOTO_SERVER");
}

export interface S3Server {
  /** http://127.0.0.1:PORT: the proxy in front of moto (what instances are configured with). */
  endpoint: string;
  bucket: string;
  /** moto's own address, for looking at the bucket while the proxy refuses service. */
  directEndpoint: string;
  /** Environment for a reportgen process: endpoint (the proxy), dummy credentials and region. */
  env: Record<string, string>;
  /** The same with moto's own address as the endpoint: no proxy, no faults. */
  directEnv: Record<string, string>;
  /** Connections are refused (the listener is closed) until up(). */
  down: () => Promise<void>;
  /**
   * Writes (PUT, POST, DELETE) are answered with an S3 error (default 503 SlowDown) until up();
   * with `only`, just the writes whose path matches it (the bucket refuses one object, not all).
   */
  refuseWrites: (status?: number, only?: RegExp) => void;
  /** Requests are taken in and never answered (a bucket that hangs) until up(). */
  hang: () => void;
  /** Normal service again. */
  up: () => void;
  /** Requests that reached the proxy, in order (method and path), for tests that count them. */
  requests: { method: string; path: string }[];
  /** moto_server's pid, for CPU accounting. */
  pid: number;
  /** Stops the proxy and moto. */
  stop: () => Promise<void>;
}

const CREDENTIALS = { AWS_ACCESS_KEY_ID: "test-access-key", AWS_SECRET_ACCESS_KEY: "test-secret-key", AWS_REGION: "us-east-1" };

const errorXml = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

async function waitForHttp(url: string, proc: ReturnType<typeof Bun.spawn>, log: () => string, init: RequestInit): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(url, init);
      return;
    } catch {}
    if (proc.exitCode !== null || Date.now() > until) throw new Error(`moto_server did not start:\n${log()}`);
    await Bun.sleep(50);
  }
}

/** moto over https: its certificate and key, and the CA that issued it (PEM files), which its clients must trust. */
export interface MotoTls {
  cert: string;
  key: string;
  ca: string;
}

/** Starts moto (over https with `tls`) and the proxy, and creates the bucket. Call stop() when done. */
export async function startS3(bucket = "reportgen-test", tls?: MotoTls): Promise<S3Server> {
  // This process's own requests to moto trust the CA that issued its certificate.
  const trust = (tls ? { tls: { ca: readFileSync(tls.ca, "utf8") } } : {}) as RequestInit;
  let motoPort = 0;
  let moto: ReturnType<typeof Bun.spawn> | undefined;
  let log = "";
  for (let i = 0; ; i++) {
    motoPort = await freePort();
    log = "";
    const certs = tls ? ["-c", tls.cert, "-k", tls.key] : [];
    moto = Bun.spawn([MOTO_SERVER, "-H", "127.0.0.1", "-p", String(motoPort), ...certs], { stdout: "ignore", stderr: "pipe" });
    const proc = moto;
    void (async () => {
      const dec = new TextDecoder();
      for await (const c of proc.stderr as ReadableStream<Uint8Array>) log += dec.decode(c);
    })();
    try {
      await waitForHttp(`${tls ? "https" : "http"}://127.0.0.1:${motoPort}/`, moto, () => log, trust);
      break;
    } catch (e) {
      moto.kill("SIGKILL");
      if (i >= 3) throw e;
    }
  }
  const direct = `${tls ? "https" : "http"}://127.0.0.1:${motoPort}`;
  const made = await fetch(`${direct}/${bucket}`, { method: "PUT", ...trust });
  if (!made.ok) throw new Error(`creating bucket ${bucket} failed: ${made.status} ${await made.text()}`);

  let mode: "up" | "refuse" | "hang" = "up";
  let refuseStatus = 503;
  let refuseOnly: RegExp | undefined;
  const hung: (() => void)[] = [];
  const requests: S3Server["requests"] = [];
  const port = await freePort();
  const serve = () =>
    Bun.serve({
      hostname: "127.0.0.1",
      port,
      // An S3 request may carry a large body: forward it as a stream, never buffered whole.
      maxRequestBodySize: 1024 ** 3,
      async fetch(req) {
        const url = new URL(req.url);
        requests.push({ method: req.method, path: url.pathname });
        if (mode === "hang") {
          // Answered (with a 503) only once the test calls up(), so nothing leaks past the test.
          await new Promise<void>((resolve) => hung.push(resolve));
          return new Response(errorXml("ServiceUnavailable", "hung"), { status: 503 });
        }
        if (mode === "refuse" && ["PUT", "POST", "DELETE"].includes(req.method) && (!refuseOnly || refuseOnly.test(url.pathname))) {
          const [code, message] =
            refuseStatus === 403 ? ["AccessDenied", "Access Denied"] : ["SlowDown", "Please reduce your request rate."];
          return new Response(errorXml(code, message), { status: refuseStatus, headers: { "content-type": "application/xml" } });
        }
        const headers = new Headers(req.headers);
        headers.delete("connection");
        headers.delete("host");
        const res = await fetch(`${direct}${url.pathname}${url.search}`, {
          method: req.method,
          headers,
          body: req.body,
          redirect: "manual",
          decompress: false,
          ...trust,
        } as RequestInit);
        return new Response(res.body, { status: res.status, headers: res.headers });
      },
    });
  let proxy: ReturnType<typeof Bun.serve> | undefined = serve();
  const endpoint = `http://127.0.0.1:${port}`;
  const stopMoto = async () => {
    moto?.kill("SIGTERM");
    await moto?.exited;
  };
  process.once("exit", () => moto?.kill("SIGKILL"));
  return {
    endpoint,
    bucket,
    directEndpoint: direct,
    env: { AWS_ENDPOINT_URL_S3: endpoint, ...CREDENTIALS },
    directEnv: { AWS_ENDPOINT_URL_S3: direct, ...CREDENTIALS },
    pid: moto!.pid,
    requests,
    down: async () => {
      await proxy?.stop(true);
      proxy = undefined;
    },
    refuseWrites: (status = 503, only?: RegExp) => {
      mode = "refuse";
      refuseStatus = status;
      refuseOnly = only;
    },
    hang: () => {
      mode = "hang";
    },
    up: () => {
      mode = "up";
      for (const h of hung.splice(0)) h();
      proxy ??= serve();
    },
    stop: async () => {
      for (const h of hung.splice(0)) h();
      await proxy?.stop(true);
      proxy = undefined;
      await stopMoto();
    },
  };
}
