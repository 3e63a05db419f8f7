// The connection gate over real sockets: a real Bun.serve behind it, real TCP clients in front.
// Client addresses, backpressure both ways, half-close, the idle timeout, refusal at the cap and the
// rate-limited warning.
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { connect, type Socket } from "node:net";
import { ConnectionGate, peerOf } from "../../src/http/connection-gate";
import { errorResponse, rawResponse, serverBusy } from "../../src/http/errors";
import type { Logger } from "../../src/lib/logger";

const BIG = Buffer.alloc(24 * 1024 * 1024, "abcdefghijklmnopqrstuvwxyz0123456789");
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

const inner = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 10,
  async fetch(request, server) {
    const path = new URL(request.url).pathname;
    if (path === "/peer") return new Response(peerOf(server, request) ?? "none");
    if (path === "/big") return new Response(BIG);
    if (path === "/echo-sha") return new Response(sha(new Uint8Array(await request.arrayBuffer())));
    if (path === "/close") return new Response("bye", { headers: { connection: "close" } });
    return new Response("ok");
  },
});

const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
const logger = {
  debug() {},
  info() {},
  error() {},
  warn: (msg: string, fields?: Record<string, unknown>) => warnings.push({ msg, fields }),
  child: () => logger,
} as unknown as Logger;

async function gate(max: number, idleTimeoutMs = 10_000) {
  const g = new ConnectionGate({
    hostname: "127.0.0.1",
    port: 0,
    maxConnections: max,
    idleTimeoutMs,
    logger,
  });
  g.start({
    port: inner.port!,
    busyResponse: await rawResponse(errorResponse(serverBusy(`${max} connections, its limit`), { connection: "close" })),
  });
  gates.push(g);
  return g;
}
const gates: ConnectionGate[] = [];

afterAll(() => {
  for (const g of gates) g.close();
  inner.stop(true);
});

interface Conn {
  socket: Socket;
  received: () => Buffer;
  closed: Promise<void>;
  ended: Promise<void>;
}

function open(port: number | undefined, localAddress?: string): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: "127.0.0.1", localAddress, allowHalfOpen: true } as never);
    const closed = new Promise<void>((r) => socket.on("close", () => r()));
    const ended = new Promise<void>((r) => socket.on("end", () => r()));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", () => {});
    socket.once("connect", () => resolve({ socket, received: () => Buffer.concat(chunks), closed, ended }));
    socket.once("error", reject);
  });
}

/** Sends one request on an open connection and waits for a whole Content-Length response (from `start`). */
async function exchange(c: Conn, request: string | Buffer, start = c.received().length): Promise<{ status: number; body: Buffer }> {
  c.socket.write(request);
  for (let i = 0; i < 400; i++) {
    const all = c.received().subarray(start);
    const headEnd = all.indexOf("\r\n\r\n");
    if (headEnd >= 0) {
      const head = all.subarray(0, headEnd).toString();
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (all.length >= headEnd + 4 + length)
        return { status: Number(head.split(" ")[1]), body: all.subarray(headEnd + 4, headEnd + 4 + length) };
    }
    await Bun.sleep(25);
  }
  throw new Error(
    `no complete response: ${c
      .received()
      .subarray(start, start + 200)
      .toString()}`,
  );
}

const get = (path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;

test("the HTTP server sees each client's own address, not the gate's loopback end", async () => {
  const g = await gate(100);
  const a = await open(g.port, "127.0.0.2");
  const b = await open(g.port, "127.0.0.3");
  expect((await exchange(a, get("/peer"))).body.toString()).toBe("127.0.0.2");
  expect((await exchange(b, get("/peer"))).body.toString()).toBe("127.0.0.3");
  // Still right for the next request on the same connection, and through fetch.
  expect((await exchange(a, get("/peer"))).body.toString()).toBe("127.0.0.2");
  expect(await (await fetch(`http://127.0.0.1:${g.port}/peer`)).text()).toBe("127.0.0.1");
  a.socket.destroy();
  b.socket.destroy();
});

test("a 24 MB response to a slow reader and a 24 MB upload arrive whole (backpressure both ways)", async () => {
  const g = await gate(100);
  const c = await open(g.port);
  c.socket.pause(); // read nothing at first: the gate must hold back, not buffer 24 MB or drop bytes
  c.socket.write(get("/big"));
  await Bun.sleep(500);
  c.socket.resume();
  const res = await exchange(c, Buffer.alloc(0));
  expect(res.status).toBe(200);
  expect(sha(res.body)).toBe(sha(BIG));
  const up = await exchange(
    c,
    Buffer.concat([Buffer.from(`POST /echo-sha HTTP/1.1\r\nHost: x\r\nContent-Length: ${BIG.length}\r\n\r\n`), BIG]),
  );
  expect(up.body.toString()).toBe(sha(BIG));
  c.socket.destroy();
  // Through fetch as well.
  const body = new Uint8Array(await (await fetch(`http://127.0.0.1:${g.port}/big`)).arrayBuffer());
  expect(sha(body)).toBe(sha(BIG));
}, 30_000);

test("the server's Connection: close and the client's half-close both end the connection cleanly", async () => {
  const g = await gate(100);
  const c = await open(g.port);
  expect((await exchange(c, get("/close"))).body.toString()).toBe("bye");
  await c.ended;
  // This client never closes its side (allowHalfOpen): the gate lets go of it after its linger anyway.
  for (let i = 0; i < 200 && g.connections > 0; i++) await Bun.sleep(50);
  expect(g.connections).toBe(0);
  c.socket.destroy();
  // The client sends its request and then FIN: it still reads the whole answer.
  const h = await open(g.port);
  h.socket.end(get("/big", "Connection: close\r\n"));
  await h.ended;
  const all = h.received();
  expect(all.subarray(0, 15).toString()).toBe("HTTP/1.1 200 OK");
  expect(sha(all.subarray(all.indexOf("\r\n\r\n") + 4))).toBe(sha(BIG));
  h.socket.destroy();
}, 30_000);

test("a connection that sends nothing is closed after the idle timeout, never before it", async () => {
  // Another idle connection keeps Bun's 4-second timeout sweep running, as live traffic does: a
  // new connection's first sweep can then be a moment away (how a 1 s timeout once fired at 318 ms).
  const g = await gate(100, 1000);
  const keeper = await open(g.port);
  await Bun.sleep(1500);
  const closedAfter = await Promise.all(
    [0, 700, 1400, 2100, 2800].map(async (delay) => {
      await Bun.sleep(delay);
      const t0 = performance.now();
      const c = await open(g.port);
      await c.closed;
      return performance.now() - t0;
    }),
  );
  for (const ms of closedAfter) {
    expect(ms).toBeGreaterThan(950);
    expect(ms).toBeLessThan(10_000); // the timeout plus Bun's sweep period, and slack for a busy machine
  }
  keeper.socket.destroy();
  for (let i = 0; i < 100 && g.connections > 0; i++) await Bun.sleep(50);
  expect(g.connections).toBe(0);
}, 30_000);

test("a client that stops reading its answer is closed after the idle timeout (it cannot hold its slot)", async () => {
  const g = await gate(100, 1000);
  const c = await open(g.port);
  c.socket.pause();
  c.socket.write(get("/big"));
  const t0 = performance.now();
  for (let i = 0; i < 300 && g.connections > 0; i++) await Bun.sleep(50);
  console.log(`non-reading client let go after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  expect(g.connections).toBe(0);
  c.socket.destroy();
}, 30_000);

test("at the cap, new connections read a complete 503 server_busy and are closed; open ones keep working; one warning per period", async () => {
  warnings.length = 0;
  const g = await gate(5);
  const held = await Promise.all(Array.from({ length: 5 }, () => open(g.port)));
  for (const h of held) expect((await exchange(h, get("/"))).status).toBe(200);
  const refused = await Promise.all(Array.from({ length: 10 }, () => open(g.port)));
  await Promise.all(refused.map((r) => r.ended)); // FIN right after the answer
  for (const r of refused) {
    const text = r.received().toString();
    expect(text).toStartWith("HTTP/1.1 503 Service Unavailable\r\n");
    expect(text.toLowerCase()).toContain("retry-after: 1\r\n");
    expect(text.toLowerCase()).toContain("connection: close\r\n");
    expect(text.toLowerCase()).toContain("content-type: application/json; charset=utf-8\r\n");
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toEqual({
      error: "server_busy",
      message: "the server is handling 5 connections, its limit; retry after Retry-After seconds",
    });
  }
  const res = await fetch(`http://127.0.0.1:${g.port}/`, { keepalive: false });
  expect(res.status).toBe(503);
  expect(((await res.json()) as { error: string }).error).toBe("server_busy");
  for (const h of held) expect((await exchange(h, get("/"))).status).toBe(200);
  expect(g.refused).toBe(11);
  expect(warnings.length).toBe(1); // the first refusal warns at once; the rest are counted for the next
  expect(warnings[0]!.fields).toMatchObject({ refused: 1, max_connections: 5, open: 5 });
  // A slot freed is a slot served.
  held[0]!.socket.destroy();
  for (let i = 0; i < 40 && g.connections >= 5; i++) await Bun.sleep(25);
  expect((await fetch(`http://127.0.0.1:${g.port}/`, { keepalive: false })).status).toBe(200);
  for (const h of held) h.socket.destroy();
}, 20_000);

test("on stop: no new connection is accepted, open ones finish their answer, silent ones are closed at once", async () => {
  const g = await gate(100);
  const silent = await open(g.port);
  const busy = await open(g.port);
  busy.socket.write(get("/big"));
  await Bun.sleep(50);
  g.stopAccepting();
  await expect(open(g.port)).rejects.toThrow();
  const t0 = performance.now();
  const silentClosed = silent.closed.then(() => performance.now() - t0);
  // This HTTP server keeps running (and the connection alive), so drain waits out its deadline.
  await g.drain(1500);
  expect(await silentClosed).toBeLessThan(1000);
  // The answer in flight was relayed whole (the HTTP server here keeps running, so it is just read out).
  const res = await exchange(busy, Buffer.alloc(0), 0);
  expect(sha(res.body)).toBe(sha(BIG));
  g.close();
  await busy.ended;
  expect(g.connections).toBe(0);
}, 20_000);
