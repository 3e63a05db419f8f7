// The checking egress proxy, for real on loopback: names come from an injected lookup, and the
// upstream connection goes through an injected `connect` that records the address the proxy
// chose and then reaches a local echo server instead (this box has no internet).
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import type { Logger } from "../../src/lib/logger";
import { type EgressProxy, type EgressProxyOptions, startEgressProxy, type UpstreamTarget } from "../../src/render/egress-proxy";

interface LogLine {
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

interface Harness {
  proxy: EgressProxy;
  port: number;
  lookups: string[];
  connects: UpstreamTarget[];
  logs: LogLine[];
}

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

interface Reply {
  status: number;
  head: string;
  socket: net.Socket;
  /** Bytes received after the response head. */
  body: () => Buffer;
  closed: Promise<void>;
}

/** Sends raw bytes to the proxy and resolves with the response head (or the close). */
function send(port: number, raw: string | Buffer, timeoutMs = 10_000): Promise<Reply> {
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

const connectReq = (authority: string) => `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`;

async function waitFor(cond: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

describe("egress proxy: allowed CONNECT", () => {
  test("an allow-listed name resolving to a public IPv4 is tunnelled to the checked address", async () => {
    const h = await startProxy();
    const r = await send(h.port, connectReq("public.test:443"));
    expect(r.head).toBe("HTTP/1.1 200 Connection Established");
    expect(h.lookups).toEqual(["public.test"]);
    expect(h.connects).toEqual([{ address: "93.184.216.34", port: 443, family: 4, host: "public.test" }]);
    // Bytes flow both ways through the tunnel.
    r.socket.write("ping");
    await waitFor(() => r.body().toString() === "echo:ping");
    r.socket.destroy();
  });

  test("a public IPv6 answer is connected to as IPv6", async () => {
    const h = await startProxy();
    const r = await send(h.port, connectReq("v6.public.test:443"));
    expect(r.status).toBe(200);
    expect(h.connects).toEqual([{ address: "2606:2800:220:1:248:1893:25c8:1946", port: 443, family: 6, host: "v6.public.test" }]);
    r.socket.destroy();
  });

  test("bytes the client sends right after the CONNECT head (a TLS hello) reach the upstream", async () => {
    const h = await startProxy();
    const r = await send(h.port, `${connectReq("public.test:443")}hello`);
    expect(r.status).toBe(200);
    await waitFor(() => r.body().toString() === "echo:hello");
    r.socket.destroy();
  });

  test("host matching is case-insensitive and ignores one trailing dot; wildcards match subdomains only", async () => {
    const h = await startProxy();
    const a = await send(h.port, connectReq("PUBLIC.Test.:443"));
    expect(a.status).toBe(200);
    a.socket.destroy();
    const b = await send(h.port, connectReq("a.cdn.test:443"));
    expect(b.status).toBe(200);
    b.socket.destroy();
    const c = await send(h.port, connectReq("cdn.test:443"));
    expect(c.status).toBe(403);
    expect(h.lookups).toEqual(["public.test", "a.cdn.test"]);
  });

  test("each CONNECT resolves again and is checked again (a redirect, or a DNS rebinding)", async () => {
    let calls = 0;
    const h = await startProxy({
      lookup: async () => (++calls === 1 ? ["93.184.216.34"] : ["127.0.0.1"]),
    });
    const first = await send(h.port, connectReq("public.test:443"));
    expect(first.status).toBe(200);
    const second = await send(h.port, connectReq("public.test:443"));
    expect(second.status).toBe(403);
    // Only the checked address was ever connected to, and never the name.
    expect(h.connects.map((c) => c.address)).toEqual(["93.184.216.34"]);
    first.socket.destroy();
  });
});

describe("egress proxy: refusals", () => {
  test.each([
    ["allowed.test", "an allow-listed name resolving to 127.0.0.1"],
    ["mixed.test", "a name resolving to [public, private]"],
    ["mixed-v6.test", "a name resolving to [public v6, ::1]"],
    ["mapped.test", "a name resolving to ::ffff:127.0.0.1"],
    ["metadata.test", "a name resolving to the cloud metadata address"],
    ["ula.test", "a name resolving to a unique-local IPv6"],
    ["nat64.test", "a name resolving to NAT64 of loopback"],
  ])("%s → 403 (%s), no upstream connection", async (host) => {
    const h = await startProxy();
    const r = await send(h.port, connectReq(`${host}:443`));
    expect(r.status).toBe(403);
    await r.closed;
    expect(h.lookups).toEqual([host]);
    expect(h.connects).toEqual([]);
    const warn = h.logs.find((l) => l.level === "warn");
    expect(warn?.fields?.reason).toBe("name resolves to a non-public address");
    expect(warn?.fields?.host).toBe(host);
  });

  test.each([
    ["evil.test:443", "a name not on the allow-list"],
    ["sub.public.test:443", "a subdomain of an exact entry"],
    ["public.test.evil:443", "a suffix trick"],
    ["public.test:80", "port 80"],
    ["public.test:8443", "another port"],
    ["public.test:0443", "a zero-padded port"],
    ["public.test", "no port"],
    ["public.test:", "an empty port"],
    ["127.0.0.1:443", "an allow-listed IPv4 literal"],
    ["93.184.216.34:443", "an allow-listed public IPv4 literal"],
    ["2130706433:443", "a decimal IPv4 literal"],
    ["0x7f000001:443", "a hex IPv4 literal"],
    ["0177.0.0.1:443", "an octal IPv4 literal"],
    ["127.1:443", "a short IPv4 literal"],
    ["[::1]:443", "a bracketed IPv6 literal"],
    ["[::ffff:127.0.0.1]:443", "an IPv4-mapped IPv6 literal"],
    ["::1:443", "a bare IPv6 literal"],
    ["localhost%00.public.test:443", "an encoded NUL"],
    ["user@public.test:443", "userinfo"],
    ["public.test/x:443", "a path"],
  ])("CONNECT %s → 403 (%s), without any lookup", async (authority) => {
    const h = await startProxy();
    const r = await send(h.port, connectReq(authority));
    expect(r.status).toBe(403);
    await r.closed;
    expect(h.lookups).toEqual([]);
    expect(h.connects).toEqual([]);
    expect(h.logs.some((l) => l.level === "warn" && l.msg.includes("refused"))).toBe(true);
  });

  test.each([
    ["GET http://public.test/secret?token=hunter2 HTTP/1.1\r\nHost: public.test\r\n\r\n", "a plain HTTP proxy request"],
    ["GET http://127.0.0.1:9/?token=hunter2 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n", "a plain request to loopback"],
    [
      "POST http://public.test:443/?token=hunter2 HTTP/1.1\r\nHost: public.test\r\nContent-Length: 0\r\n\r\n",
      "a POST (sendBeacon) to port 443",
    ],
    ["GET / HTTP/1.1\r\nHost: public.test\r\n\r\n", "an origin-form request"],
    ["connect public.test:443 HTTP/1.1\r\n\r\n", "a lower-case method"],
    ["CONNECT public.test:443 HTTP/2.0\r\n\r\n", "another HTTP version"],
    ["CONNECT  public.test:443 HTTP/1.1\r\n\r\n", "a doubled space"],
    ["\x16\x03\x01\x00\x05hello\r\n\r\n", "TLS bytes"],
  ])("%j → 403 (%s), and the query string is never logged", async (raw) => {
    const h = await startProxy();
    const r = await send(h.port, raw);
    expect(r.status).toBe(403);
    await r.closed;
    expect(h.lookups).toEqual([]);
    expect(h.connects).toEqual([]);
    expect(JSON.stringify(h.logs)).not.toContain("hunter2");
    expect(JSON.stringify(h.logs)).not.toContain("secret");
  });

  test("a lookup failure is 502, after the policy check, without a connection", async () => {
    const h = await startProxy();
    const r = await send(h.port, connectReq("missing.test:443"));
    expect(r.status).toBe(502);
    expect(h.lookups).toEqual(["missing.test"]);
    expect(h.connects).toEqual([]);
  });

  test("a name with no addresses is 502", async () => {
    const h = await startProxy();
    const r = await send(h.port, connectReq("empty.test:443"));
    expect(r.status).toBe(502);
    expect(h.connects).toEqual([]);
  });

  test("an upstream that refuses the connection is 502, after the address was checked", async () => {
    const h = await startProxy({ upstreamPort: closedPort });
    const r = await send(h.port, connectReq("public.test:443"));
    expect(r.status).toBe(502);
    expect(h.connects.map((c) => c.address)).toEqual(["93.184.216.34"]);
    expect(h.logs.find((l) => l.level === "warn")?.fields?.reason).toBe("upstream connect failed");
  });

  test("a lookup that never answers is cut off with 502", async () => {
    const h = await startProxy({ handshakeTimeoutMs: 300, lookup: () => new Promise<string[]>(() => {}) });
    const started = Date.now();
    const r = await send(h.port, connectReq("public.test:443"));
    expect(r.status).toBe(502);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(h.connects).toEqual([]);
  });

  test("an upstream that never completes its connect is cut off with 502", async () => {
    const targets: UpstreamTarget[] = [];
    const h = await startProxy({
      handshakeTimeoutMs: 300,
      connect: (t) => {
        targets.push(t);
        return new net.Socket(); // never connects
      },
    });
    const started = Date.now();
    const r = await send(h.port, connectReq("public.test:443"));
    expect(r.status).toBe(502);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(targets.map((t) => t.address)).toEqual(["93.184.216.34"]);
    expect(h.logs.find((l) => l.level === "warn")?.fields?.error).toBe("connect timed out");
  });

  test("a client that hangs up mid-request leaves no refusal behind", async () => {
    const h = await startProxy({ handshakeTimeoutMs: 200 });
    const c = net.connect({ host: "127.0.0.1", port: h.port });
    c.on("error", () => {});
    await new Promise<void>((r) => c.on("connect", () => r()));
    c.write("CONNECT public.test:443 HTTP/1.1\r\n");
    await Bun.sleep(50);
    c.destroy();
    await Bun.sleep(400);
    expect(h.logs.filter((l) => l.level === "warn")).toEqual([]);
    expect(h.lookups).toEqual([]);
  });

  test("a request head larger than 8 KiB is refused", async () => {
    const h = await startProxy();
    const r = await send(h.port, `CONNECT public.test:443 HTTP/1.1\r\nX-Pad: ${"a".repeat(10_000)}`);
    expect(r.status).toBe(403);
    expect(h.connects).toEqual([]);
  });

  test("a client that never finishes its request head is cut off", async () => {
    const h = await startProxy({ handshakeTimeoutMs: 200 });
    const started = Date.now();
    const r = await send(h.port, "CONNECT public.test:443 HTTP/1.1\r\n");
    expect(r.status).toBe(504);
    await r.closed;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(h.lookups).toEqual([]);
  });
});

describe("egress proxy: limits and shutdown", () => {
  test("a tunnel idle in both directions is closed", async () => {
    const h = await startProxy({ idleTimeoutMs: 300 });
    const r = await send(h.port, connectReq("public.test:443"));
    expect(r.status).toBe(200);
    const started = Date.now();
    await r.closed;
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("traffic keeps a tunnel open past the idle timeout", async () => {
    const h = await startProxy({ idleTimeoutMs: 400 });
    const r = await send(h.port, connectReq("public.test:443"));
    expect(r.status).toBe(200);
    let closed = false;
    void r.closed.then(() => (closed = true));
    for (let i = 0; i < 6; i++) {
      r.socket.write("x");
      await Bun.sleep(150);
    }
    expect(closed).toBe(false);
    r.socket.destroy();
  });

  test("connections beyond maxTunnels are answered 503", async () => {
    const h = await startProxy({ maxTunnels: 2 });
    const a = await send(h.port, connectReq("public.test:443"));
    const b = await send(h.port, connectReq("public.test:443"));
    expect([a.status, b.status]).toEqual([200, 200]);
    const c = await send(h.port, connectReq("public.test:443"));
    expect(c.status).toBe(503);
    expect(h.connects.length).toBe(2);
    // A slot frees up when a tunnel closes.
    a.socket.destroy();
    await a.closed;
    await Bun.sleep(100);
    const d = await send(h.port, connectReq("public.test:443"));
    expect(d.status).toBe(200);
    b.socket.destroy();
    d.socket.destroy();
  });

  test("the proxy listens on 127.0.0.1 only, and close() ends open tunnels", async () => {
    const h = await startProxy();
    expect(h.proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await send(h.port, connectReq("public.test:443"));
    expect(r.status).toBe(200);
    await h.proxy.close();
    await r.closed;
    await expect(send(h.port, connectReq("public.test:443"), 2000).then((x) => x.status)).resolves.toBe(0);
  });
});
