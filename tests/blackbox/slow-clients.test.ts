// Slow clients are bounded: trickled heads and bodies, idle connections and piles of in-progress
// requests cannot hold connections (and file descriptors) for long. Raw TCP sockets against the
// compiled executable. Defaults where the wait is short enough; two tests shorten --body-timeout or
// --max-requests so they finish in seconds (saying so), which also shows those settings take effect.
import { expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { openFdCount } from "../../src/lib/process-tree";
import { useServers } from "./helpers";

const servers = useServers();
const server = servers.start;
const stopServer = servers.stop;

interface Probe {
  socket: Socket;
  /** Resolves with ms from open to close, and what the server sent. */
  closed: Promise<{ ms: number; received: string }>;
}

function open(port: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let received = "";
    const socket = connect(port, "127.0.0.1");
    const closed = new Promise<{ ms: number; received: string }>((done) =>
      socket.on("close", () => done({ ms: performance.now() - t0, received })),
    );
    socket.on("data", (d) => (received += d.toString()));
    socket.on("error", () => {});
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

const head = (contentLength: number) =>
  `POST /api/v1/generate-pdf-async HTTP/1.1\r\nHost: x\r\nX-API-Key: ${servers.key}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

/** Writes `text` in pieces of `size` every `everyMs` until the socket closes. */
function trickle(p: Probe, text: string, size: number, everyMs: number) {
  let i = 0;
  const timer = setInterval(() => {
    if (p.socket.destroyed || i >= text.length) return clearInterval(timer);
    p.socket.write(text.slice(i, i + size));
    i += size;
  }, everyMs);
  void p.closed.then(() => clearInterval(timer));
}

const fds = openFdCount;

test("defaults: a body at 1 byte/s, a head at 1 byte/s and 1500 idle connections are all closed by the server", async () => {
  const s = await server();
  const fdsBefore = fds(s.pid);
  const body = await open(s.port);
  body.socket.write(head(100_000));
  trickle(body, "{".padEnd(100_000, " "), 1, 1000);
  const slowHead = await open(s.port);
  trickle(slowHead, head(10), 1, 1000);
  // Opened 100 at a time: a burst of 1500 connects from one process overflows the kernel's accept queue
  // (backlog 512), and the handshakes it drops complete only on the client's side (SYN cookies): the
  // server never holds them, so they would not test its timeouts.
  const idle: Probe[] = [];
  for (let i = 0; i < 15; i++) {
    idle.push(...(await Promise.all(Array.from({ length: 100 }, () => open(s.port)))));
    await Bun.sleep(20);
  }
  // They are really held open by the server (accepting 1500 takes a moment on a loaded machine).
  for (let i = 0; i < 50 && fds(s.pid) < fdsBefore + 1400; i++) await Bun.sleep(100);
  expect(fds(s.pid)).toBeGreaterThan(fdsBefore + 1000);
  // The server keeps answering while they hang on.
  expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
  const [b, h, ...i] = await Promise.all([body.closed, slowHead.closed, ...idle.map((p) => p.closed)]);
  const slowestIdle = Math.max(...i.map((x) => x.ms));
  console.log(
    `closed by the server after: body trickle ${(b.ms / 1000).toFixed(1)} s, head trickle ${(h.ms / 1000).toFixed(1)} s, 1500 idle connections within ${(slowestIdle / 1000).toFixed(1)} s`,
  );
  // Idle timeout 30 s, body timeout 60 s, Bun's head timeout ~10 s: generous upper bounds.
  expect(b.ms).toBeLessThan(70_000);
  expect(h.ms).toBeLessThan(40_000);
  expect(slowestIdle).toBeLessThan(40_000);
  await Bun.sleep(200);
  expect(fds(s.pid)).toBeLessThan(fdsBefore + 50);
  await stopServer(s);
}, 120_000);

test("--body-timeout 3s: a body that keeps arriving (fast enough for Bun's idle timer) still gets 408 and is closed", async () => {
  // Shortened from the 60 s default so the test takes seconds.
  const s = await server(["--body-timeout", "3s"]);
  const p = await open(s.port);
  const size = 5 * 1024 * 1024;
  p.socket.write(head(size));
  trickle(p, "{".padEnd(size, " "), 8 * 1024, 200); // 40 KB/s: 5 MB would take two minutes
  const { ms, received } = await p.closed;
  console.log(`steady 40 KB/s body: ${received.split("\r\n")[0]} after ${(ms / 1000).toFixed(1)} s`);
  expect(received).toStartWith("HTTP/1.1 408");
  expect(received).toContain('"error":"request_timeout"');
  expect(ms).toBeLessThan(20_000);
  await stopServer(s);
}, 60_000);

test("--max-requests 20: beyond 20 requests in progress, new ones get 503 server_busy at once; service resumes after", async () => {
  // 20 instead of the default 1000 so the test needs few sockets; the mechanism is the same.
  const s = await server(["--max-requests", "20", "--body-timeout", "5s"]);
  const stuck = await Promise.all(Array.from({ length: 25 }, () => open(s.port)));
  for (const p of stuck) p.socket.write(`${head(1000)}{`);
  await Bun.sleep(500);
  const t0 = performance.now();
  const res = await fetch(`${s.base}/api/v1/reports`, { headers: { "x-api-key": servers.key } });
  const ms = performance.now() - t0;
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("1");
  expect(((await res.json()) as { error: string }).error).toBe("server_busy");
  expect(ms).toBeLessThan(2000);
  // The stuck ones time out (408), after which the server serves again.
  const ends = await Promise.all(stuck.map((p) => p.closed));
  expect(ends.filter((e) => e.received.startsWith("HTTP/1.1 408") || e.received.startsWith("HTTP/1.1 503")).length).toBe(25);
  expect((await fetch(`${s.base}/api/v1/reports`, { headers: { "x-api-key": servers.key } })).status).toBe(200);
  await stopServer(s);
}, 60_000);
