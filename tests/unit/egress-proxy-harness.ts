// Shared by the egress proxy tests (egress-proxy.test.ts, egress-proxy-refusals.test.ts): the proxy for
// real on loopback, with names from an injected lookup (a fixed table), and an injected `connect` that
// records the address the proxy chose and then reaches a local echo server instead (this box has no
// internet); a raw client that sends bytes and reads the response head.
import { afterAll, afterEach, beforeAll } from "bun:test";
import net from "node:net";
import type { Logger } from "../../src/lib/logger";
import { type EgressProxy, type EgressProxyOptions, startEgressProxy, type UpstreamTarget } from "../../src/render/egress-proxy";

export interface LogLine {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

function memoryLogger(lines: LogLine[]): Logger {
  const l: Logger = {
    debug: (msg, fields) => lines.push({ level: "debug", msg, fields }),
    info: (msg, fields) => lines.push({ level: "info", msg, fields }),
    warn: (msg, fields) => lines.push({ level: "warn", msg, fields }),
    error: (msg, fields) => lines.push({ level: "error", msg, fields }),
    child: () => l,
  };
  return l;
}

const DNS: Record<string, string[]> = {
  "public.test": ["93.184.216.34"],
  "v6.public.test": ["2606:2800:220:1:248:1893:25c8:1946"],
  "allowed.test": ["127.0.0.1"],
  "mixed.test": ["93.184.216.34", "10.0.0.5"],
  "mixed-v6.test": ["2606:2800:220:1:248:1893:25c8:1946", "::1"],
  "mapped.test": ["::ffff:127.0.0.1"],
  "metadata.test": ["169.254.169.254"],
  "ula.test": ["fd00::2"],
  "nat64.test": ["64:ff9b::7f00:1"],
  "empty.test": [],
  "a.cdn.test": ["93.184.216.35"],
  "cdn.test": ["93.184.216.36"],
};

export interface Harness {
  proxy: EgressProxy;
  port: number;
  lookups: string[];
  connects: UpstreamTarget[];
  logs: LogLine[];
}

/**
 * Starts the echo server (and finds a closed port) before the file's tests and closes every proxy
 * after each test. `startProxy` starts a proxy on the fixed allow-list and DNS table; `closedPort()`
 * is a port with nothing listening, for "upstream connect failed".
 */
export function useEgressProxies() {
  let echo: net.Server;
  let echoPort: number;
  let closedPort: number;

  beforeAll(async () => {
    echo = net.createServer((s) => {
      s.on("error", () => {});
      s.on("data", (d: Buffer) => s.write(Buffer.concat([Buffer.from("echo:"), d])));
    });
    await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
    echoPort = (echo.address() as net.AddressInfo).port;
    // A port with nothing listening, for "upstream connect failed".
    const tmp = net.createServer();
    await new Promise<void>((r) => tmp.listen(0, "127.0.0.1", r));
    closedPort = (tmp.address() as net.AddressInfo).port;
    await new Promise<void>((r) => tmp.close(() => r()));
  });
  afterAll(() => new Promise<void>((r) => echo.close(() => r())));

  const open: EgressProxy[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.close()));
  });

  async function startProxy(over: Partial<EgressProxyOptions> & { upstreamPort?: number } = {}): Promise<Harness> {
    const lookups: string[] = [];
    const connects: UpstreamTarget[] = [];
    const logs: LogLine[] = [];
    const proxy = await startEgressProxy({
      allowHosts: [
        "public.test",
        "v6.public.test",
        "allowed.test",
        "mixed.test",
        "mixed-v6.test",
        "mapped.test",
        "metadata.test",
        "ula.test",
        "nat64.test",
        "empty.test",
        "missing.test",
        "*.cdn.test",
        "localhost",
        "127.0.0.1",
        "93.184.216.34",
        "::1",
      ],
      logger: memoryLogger(logs),
      lookup: async (h) => {
        lookups.push(h);
        const a = DNS[h];
        if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: "ENOTFOUND" });
        return a;
      },
      connect: (t) => {
        connects.push(t);
        return net.connect({ host: "127.0.0.1", port: over.upstreamPort ?? echoPort });
      },
      ...over,
    });
    open.push(proxy);
    return { proxy, port: Number(new URL(proxy.url).port), lookups, connects, logs };
  }

  return { startProxy, closedPort: () => closedPort };
}

export interface Reply {
  status: number;
  head: string;
  socket: net.Socket;
  /** Bytes received after the response head. */
  body: () => Buffer;
  closed: Promise<void>;
}

/** Sends raw bytes to the proxy and resolves with the response head (or the close). */
export function send(port: number, raw: string | Buffer, timeoutMs = 10_000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let buf = Buffer.alloc(0);
    let headEnd = -1;
    let settled = false;
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    const timer = setTimeout(() => {
      if (!settled) {
        settled = true;
        socket.destroy();
        reject(new Error(`no answer within ${timeoutMs} ms; got ${JSON.stringify(buf.toString("latin1"))}`));
      }
    }, timeoutMs);
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const head = buf.subarray(0, headEnd < 0 ? buf.length : headEnd).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, socket, body: () => buf.subarray(headEnd < 0 ? buf.length : headEnd + 4), closed });
    };
    socket.on("error", () => {});
    socket.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (headEnd < 0) {
        headEnd = buf.indexOf("\r\n\r\n");
        if (headEnd >= 0) done();
      }
    });
    socket.on("close", done);
    socket.on("connect", () => socket.write(raw));
  });
}

export const connectReq = (authority: string) => `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`;

export async function waitFor(cond: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}
