// Connections are capped, so slow or idle clients cannot exhaust the server's file descriptors: over
// the cap a connection reads a complete 503 server_busy and is closed, connections already open keep
// being served (a whole report, from submission to PDF), the process's descriptors stay bounded, and
// service is normal once the flood ends. Raw TCP against the compiled executable.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { openFdCount, openFileLimit } from "../../src/lib/process-tree";
import { useServers } from "./helpers";

const servers = useServers();

const fds = openFdCount;

interface Probe {
  socket: Socket;
  received: () => Buffer;
  /** The server sent FIN (or the connection closed). */
  ended: Promise<void>;
}

function open(port: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1");
    const ended = new Promise<void>((done) => {
      socket.on("end", () => done());
      socket.on("close", () => done());
    });
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", () => {});
    socket.once("connect", () => resolve({ socket, received: () => Buffer.concat(chunks), ended }));
    socket.once("error", reject);
  });
}

/** Opens `n` connections 50 at a time (one burst of hundreds overflows the kernel's accept queue of 512). */
async function openMany(port: number, n: number): Promise<Probe[]> {
  const all: Probe[] = [];
  while (all.length < n) {
    all.push(...(await Promise.all(Array.from({ length: Math.min(50, n - all.length) }, () => open(port)))));
    await Bun.sleep(20);
  }
  return all;
}

/** A minimal HTTP/1.1 client on ONE keep-alive connection, opened before the flood. */
class KeepAlive {
  private constructor(
    private readonly p: Probe,
    private readonly port: number,
  ) {}
  static async open(port: number) {
    return new KeepAlive(await open(port), port);
  }
  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: Buffer }> {
    const payload = body === undefined ? "" : JSON.stringify(body);
    const start = this.p.received().length;
    this.p.socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${this.port}\r\nX-API-Key: ${servers.key}\r\n` +
        (body === undefined ? "" : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n`) +
        `\r\n${payload}`,
    );
    const deadline = performance.now() + 60_000;
    while (performance.now() < deadline) {
      const all = this.p.received().subarray(start);
      const headEnd = all.indexOf("\r\n\r\n");
      if (headEnd >= 0) {
        const head = all.subarray(0, headEnd).toString();
        const status = Number(head.split(" ")[1]);
        const length = /content-length: (\d+)/i.exec(head)?.[1];
        if (length !== undefined && all.length >= headEnd + 4 + Number(length))
          return { status, body: all.subarray(headEnd + 4, headEnd + 4 + Number(length)) };
        if (/transfer-encoding: chunked/i.test(head)) {
          const chunks = dechunk(all.subarray(headEnd + 4));
          if (chunks) return { status, body: chunks };
        }
      }
      await Bun.sleep(20);
    }
    throw new Error(`no complete answer to ${method} ${path}`);
  }
  close() {
    this.p.socket.destroy();
  }
}

/** The body of a complete chunked message, or undefined while incomplete. */
function dechunk(b: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let i = 0;
  for (;;) {
    const lineEnd = b.indexOf("\r\n", i);
    if (lineEnd < 0) return undefined;
    const size = parseInt(b.subarray(i, lineEnd).toString(), 16);
    if (size === 0) return Buffer.concat(parts);
    if (b.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(b.subarray(lineEnd + 2, lineEnd + 2 + size));
    i = lineEnd + 2 + size + 2;
  }
}

const busyBody = (text: string) => JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4));

/** Submit, wait, fetch the link, download: the PDF's bytes. */
async function report(c: { request: KeepAlive["request"] }, title: string): Promise<Buffer> {
  const sub = await c.request("POST", "/api/v1/generate-pdf-async", { engine: "raw", html_template: `<h1>${title}</h1>` });
  expect(sub.status).toBe(202);
  const id = JSON.parse(sub.body.toString()).report_id as string;
  const done = await c.request("GET", `/api/v1/reports/${id}?wait=30`);
  expect(JSON.parse(done.body.toString()).data.status).toBe("succeeded");
  const link = JSON.parse((await c.request("GET", `/api/v1/reports/${id}/download`)).body.toString()).data as string;
  const pdf = await c.request("GET", new URL(link).pathname + new URL(link).search);
  expect(pdf.status).toBe(200);
  return pdf.body;
}

function checkPdf(pdf: Buffer, title: string) {
  const file = join(servers.dataDir, `${title}.pdf`);
  writeFileSync(file, pdf);
  const info = Bun.spawnSync(["pdfinfo", file]);
  expect(info.exitCode).toBe(0);
  expect(info.stdout.toString()).toMatch(/Pages:\s+1/);
  expect(Bun.spawnSync(["pdftotext", file, "-"]).stdout.toString()).toContain(title);
}

test("defaults: the cap follows the process's open-file limit, as documented", async () => {
  const s = await servers.start();
  const limit = openFileLimit(s.pid);
  const expected = Math.max(64, Math.min(10_000, Math.floor((limit - 1024) / 4)));
  const listening = s
    .log()
    .split("\n")
    .find((l) => l.includes('"reportgen listening"'))!;
  console.log(`open-file limit ${limit}: default --max-connections ${JSON.parse(listening).max_connections}`);
  expect(JSON.parse(listening).max_connections).toBe(expected);
  // Room for every capped connection's descriptors plus the reserve.
  expect(expected * 4 + 1024).toBeLessThanOrEqual(limit);
  expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
  await servers.stop(s);
}, 60_000);

test("--max-connections 100: a flood of 3x the cap is refused with a readable 503, descriptors stay bounded, an open connection still gets a whole report, and service is normal after", async () => {
  // 100 instead of the default (~4700 here) so the flood needs a few hundred sockets, not 15 000.
  const CAP = 100;
  const s = await servers.start(["--max-connections", String(CAP)]);
  const client = await KeepAlive.open(s.port);
  expect((await client.request("GET", "/healthz")).status).toBe(200);
  const before = fds(s.pid);

  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, fds(s.pid))), 50);
  const flood = await openMany(s.port, 3 * CAP);
  // Half of them trickle a request head at one byte a second; the rest send nothing.
  const head = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ${"x".repeat(64)}\r\n\r\n`;
  let sent = 0;
  const trickle = setInterval(() => {
    for (let i = 0; i < flood.length; i += 2) if (!flood[i]!.socket.destroyed) flood[i]!.socket.write(head[sent % head.length]!);
    sent++;
  }, 1000);

  // (1) Over the cap: a complete 503 server_busy at once, then FIN. For raw sockets and fetch alike.
  await Bun.sleep(1500);
  const refused = flood.filter((p) => p.received().toString().startsWith("HTTP/1.1 503"));
  const held = flood.length - refused.length;
  console.log(`flood of ${flood.length}: ${held} held, ${refused.length} refused with 503`);
  // The keep-alive client holds one slot; the test runner's pooled fetch connections may hold one or two.
  expect(held).toBeLessThanOrEqual(CAP - 1);
  expect(held).toBeGreaterThanOrEqual(CAP - 3);
  await Promise.all(refused.map((p) => p.ended));
  const text = refused[0]!.received().toString();
  expect(text.toLowerCase()).toContain("content-type: application/json; charset=utf-8\r\n");
  expect(text.toLowerCase()).toContain("retry-after: 1\r\n");
  expect(text.toLowerCase()).toContain("connection: close\r\n");
  expect(busyBody(text)).toEqual({
    error: "server_busy",
    message: `the server is handling ${CAP} connections, its limit; retry after Retry-After seconds`,
  });
  const viaFetch = await fetch(`${s.base}/healthz`, { keepalive: false });
  expect(viaFetch.status).toBe(503);
  expect(viaFetch.headers.get("retry-after")).toBe("1");
  expect(((await viaFetch.json()) as { error: string }).error).toBe("server_busy");

  // (2) The open connection is served throughout: health and a whole report, checked with pdfinfo.
  expect((await client.request("GET", "/healthz")).status).toBe(200);
  checkPdf(await report(client, "During the flood"), "During the flood");
  clearInterval(sampler);
  // A held connection costs at most 3 descriptors (its socket, the relay and the HTTP server's end).
  console.log(`descriptors: ${before} before the flood, at most ${peak} during it (cap ${CAP})`);
  expect(peak).toBeLessThan(before + 3 * CAP + 64);
  // The counts are in /metrics.
  const metrics = (await client.request("GET", "/metrics")).body.toString();
  expect(Number(/^reportgen_connections_refused_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(refused.length + 1);
  expect(Number(/^reportgen_connections_open (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(held);
  // One warning for the burst of refusals, not one per connection.
  const warnings = s
    .log()
    .split("\n")
    .filter((l) => l.includes("connections refused"));
  expect(warnings.length).toBeGreaterThanOrEqual(1);
  expect(warnings.length).toBeLessThanOrEqual(3);

  // (3) The flood ends: new connections are served again, a report goes through plain fetch.
  clearInterval(trickle);
  for (const p of flood) p.socket.destroy();
  client.close();
  let status = 0;
  for (let i = 0; i < 100 && status !== 200; i++) {
    status = (await fetch(`${s.base}/healthz`, { keepalive: false })).status;
    if (status !== 200) await Bun.sleep(100);
  }
  expect(status).toBe(200);
  const viaHttp = {
    request: async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${s.base}${path}`, {
        method,
        headers: { "x-api-key": servers.key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
    },
  };
  checkPdf(await report(viaHttp, "After the flood"), "After the flood");
  for (let i = 0; i < 100 && fds(s.pid) > before + 20; i++) await Bun.sleep(100);
  expect(fds(s.pid)).toBeLessThan(before + 20);
}, 120_000);
