// The checking egress proxy, for real on loopback (see egress-proxy-harness.ts): what it refuses, and
// how. Names resolving to non-public addresses, authorities and requests it never looks up, lookups and
// upstreams that fail or never answer, and clients that hang up or never finish their request head.
import { describe, expect, test } from "bun:test";
import net from "node:net";
import type { UpstreamTarget } from "../../src/render/egress-proxy";
import { connectReq, send, useEgressProxies } from "./egress-proxy-harness";

const { startProxy, closedPort } = useEgressProxies();

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
    const h = await startProxy({ upstreamPort: closedPort() });
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
