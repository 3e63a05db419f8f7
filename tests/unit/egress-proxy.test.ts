// The checking egress proxy, for real on loopback: names come from an injected lookup, and the
// upstream connection goes through an injected `connect` that records the address the proxy
// chose and then reaches a local echo server instead (this box has no internet). What it lets
// through, its limits and its shutdown; what it refuses: egress-proxy-refusals.test.ts.
import { describe, expect, test } from "bun:test";
import { connectReq, send, useEgressProxies, waitFor } from "./egress-proxy-harness";

const { startProxy } = useEgressProxies();

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
