// A canary for the network policy: servers that record every connection a report page manages
// to open. They listen dual-stack on "::", so a connection to 127.0.0.1, ::1, ::ffff:127.0.0.1 or
// this machine's own interface addresses is seen on the same port.
//
// Other programs on the machine reach the same ports (a health probe's `curl http://127.0.0.1/` lands
// on the canary's port 80), so not every hit is a leak. Every vector URL carries `token`, a random path
// segment only this test knows, and a hit counts (leaks()) when:
// - it is an HTTP request (or WebSocket upgrade) whose request line carries the token;
// - it carries no request line (a preconnected socket that sent nothing yet, TLS to :443, other bytes)
//   and was not opened by a program outside this test's process tree (its owner is looked up with `ss`
//   the moment it is accepted; an owner that cannot be found counts, so a leak is never explained away);
// - it is a UDP datagram (STUN, QUIC: no readable token) on the canary's own ephemeral port.
import { randomBytes } from "node:crypto";
import dgram from "node:dgram";
import net from "node:net";
import { networkInterfaces } from "node:os";
import { descendantsOf } from "../../src/lib/process-tree";

export interface Hit {
  kind: string;
  port: number;
  remote?: string;
  /** The request line or first bytes, which name the vector (each URL carries a tag). */
  detail: string;
  /** TCP: who opened the connection, "this test" (this process or a descendant: Chromium), "pid N (name)" or "unknown". */
  owner?: string;
}

/** An HTTP request line: "GET /path HTTP/1.1". */
const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/\d/;

export interface Canary {
  /** Bun.serve: HTTP requests and WebSocket upgrades. */
  httpPort: number;
  /** node:net: every TCP connection. */
  rawPort: number;
  /** node:dgram: every UDP datagram (STUN/TURN, QUIC, WebTransport). */
  udpPort: number;
  /** Well-known ports we also managed to listen on (80, 443, 9), if free; never required. */
  wellKnown: number[];
  /** The path segment every vector URL carries ("/<token>/..."): only this test knows it. */
  token: string;
  /** Everything that reached the canary, leaks and strays alike. */
  hits: Hit[];
  /** The hits that count as leaks (see the top of this file), once every owner lookup is done. */
  leaks(): Promise<Hit[]>;
  /** The hits that do not count: another program's, or requests without the token. */
  strays(): Promise<Hit[]>;
  reset(): void;
  close(): Promise<void>;
}

const clip = (b: Buffer | string) => (typeof b === "string" ? b : b.toString("latin1")).split("\r\n")[0]!.slice(0, 200);

/**
 * Who holds the client end of an accepted loopback connection (local port `clientPort`, peer port
 * `serverPort`): "this test", "pid N (name)" of another program, or "unknown" when no socket matches.
 */
async function ownerOf(clientPort: number, serverPort: number): Promise<string> {
  const p = Bun.spawn(["ss", "-tnpH", "state", "all", "sport", "=", `:${clientPort}`, "and", "dport", "=", `:${serverPort}`], {
    stdout: "pipe",
    stderr: "ignore",
  });
  const out = await new Response(p.stdout).text();
  await p.exited;
  const owners = [...out.matchAll(/\("([^"]*)",pid=(\d+)/g)].map((m) => ({ name: m[1], pid: Number(m[2]) }));
  if (!owners.length) return "unknown";
  const ours = new Set([process.pid, ...descendantsOf(process.pid)]);
  const other = owners.find((o) => !ours.has(o.pid));
  return other ? `pid ${other.pid} (${other.name})` : "this test";
}

function rawServer(hits: Hit[], lookups: Promise<unknown>[], kind: string): net.Server {
  return net.createServer((c) => {
    const hit: Hit = { kind, port: c.localPort ?? 0, remote: c.remoteAddress, detail: "" };
    hits.push(hit);
    // At once, while the client's socket is still open; ours stays open until the lookup is done.
    const lookup = ownerOf(c.remotePort ?? 0, c.localPort ?? 0).then(
      (o) => void (hit.owner = o),
      () => void (hit.owner = "unknown"),
    );
    lookups.push(lookup);
    c.on("error", () => {});
    c.once("data", (d: Buffer) => (hit.detail = clip(d)));
    void Promise.all([lookup, Bun.sleep(200)]).then(() => c.destroy());
  });
}

/** Whether a hit counts as a leak (see the top of this file). */
function isLeak(h: Hit, token: string): boolean {
  if (h.kind === "udp") return true;
  if (h.kind === "http" || h.kind === "websocket" || REQUEST_LINE.test(h.detail)) return h.detail.includes(token);
  return h.owner === "this test" || h.owner === "unknown" || h.owner === undefined;
}

function listen(server: net.Server, port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    server.once("error", () => resolve(undefined));
    server.listen({ port, host: "::", ipv6Only: false }, () => resolve((server.address() as net.AddressInfo).port));
  });
}

export async function startCanary(): Promise<Canary> {
  const token = `k${randomBytes(12).toString("hex")}`;
  const hits: Hit[] = [];
  const lookups: Promise<unknown>[] = [];
  const http = Bun.serve<{ path: string }>({
    hostname: "::",
    port: 0,
    fetch(req, server) {
      const url = new URL(req.url);
      const detail = `${req.method} ${url.pathname}${url.search}`;
      hits.push({ kind: "http", port: server.port!, remote: server.requestIP(req)?.address, detail });
      if (req.headers.get("upgrade")?.toLowerCase() === "websocket" && server.upgrade(req, { data: { path: detail } })) return undefined;
      return new Response("<p>CANARY-REACHED</p>", { headers: { "content-type": "text/html", "access-control-allow-origin": "*" } });
    },
    websocket: {
      open(ws) {
        hits.push({ kind: "websocket", port: 0, remote: ws.remoteAddress, detail: `open ${ws.data.path}` });
      },
      message() {},
    },
  });
  const raw = rawServer(hits, lookups, "tcp");
  const rawPort = (await listen(raw, 0))!;
  const udp = dgram.createSocket({ type: "udp6", ipv6Only: false });
  udp.on("message", (m, r) => hits.push({ kind: "udp", port: udpPort, remote: r.address, detail: `${m.length} bytes` }));
  await new Promise<void>((r) => udp.bind(0, "::", () => r()));
  const udpPort = udp.address().port;

  const extra: net.Server[] = [];
  const wellKnown: number[] = [];
  for (const p of [80, 443, 9]) {
    const s = rawServer(hits, lookups, `tcp:${p}`);
    if ((await listen(s, p)) === p) {
      extra.push(s);
      wellKnown.push(p);
    }
  }

  return {
    httpPort: http.port!,
    rawPort,
    udpPort,
    wellKnown,
    token,
    hits,
    leaks: async () => {
      await Promise.all(lookups);
      return hits.filter((h) => isLeak(h, token));
    },
    strays: async () => {
      await Promise.all(lookups);
      return hits.filter((h) => !isLeak(h, token));
    },
    reset: () => {
      hits.splice(0);
      lookups.splice(0);
    },
    close: async () => {
      http.stop(true);
      udp.close();
      await Promise.all([raw, ...extra].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}

/** Connections whose remote end is not loopback, opened by this process's child processes (Chromium). */
export class ChildSocketWatch {
  readonly violations: string[] = [];
  private timer?: Timer;
  private busy = false;

  start(everyMs = 300) {
    this.timer = setInterval(() => void this.sample(), everyMs);
  }

  stop() {
    clearInterval(this.timer);
  }

  /**
   * Proves the watch can see a child's socket: a child process connects to this machine's own
   * non-loopback address and holds the connection while we sample. Returns false when the machine
   * has no such address (the watch is then unproven, not failed).
   */
  async selfTest(): Promise<boolean> {
    const own = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === "IPv4")?.address;
    if (!own) return false;
    const server = net.createServer((c) => c.on("error", () => {}));
    await new Promise<void>((r) => server.listen(0, own, () => r()));
    const port = (server.address() as net.AddressInfo).port;
    const child = Bun.spawn(
      [
        process.execPath,
        "-e",
        `require("node:net").connect({ host: ${JSON.stringify(own)}, port: ${port} }).on("connect", () => console.log("up")); setTimeout(() => process.exit(0), 5000);`,
      ],
      { stdout: "pipe", stderr: "ignore" },
    );
    const reader = child.stdout.getReader();
    await reader.read();
    await this.sample();
    child.kill();
    await child.exited;
    await new Promise<void>((r) => server.close(() => r()));
    const seen = this.violations.some((v) => v.includes(`${own}:${port}`));
    this.violations.splice(0);
    if (!seen) throw new Error(`the socket watch did not see a child's connection to ${own}:${port}`);
    return true;
  }

  async sample() {
    if (this.busy) return;
    this.busy = true;
    try {
      const pids = new Set(descendantsOf(process.pid));
      if (pids.size === 0) return;
      const p = Bun.spawn(["ss", "-tuanpH"], { stdout: "pipe", stderr: "ignore" });
      const out = await new Response(p.stdout).text();
      await p.exited;
      for (const line of out.split("\n")) {
        const owners = [...line.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
        if (!owners.some((o) => pids.has(o))) continue;
        const cols = line.trim().split(/\s+/);
        const peer = cols[5] ?? "";
        if (/^(\*|0\.0\.0\.0|\[::\]|::|\[::ffff:0\.0\.0\.0\]):\*$/.test(peer) || peer === "*:*") continue;
        const host = peer
          .replace(/:[^:]*$/, "")
          .replace(/^\[|\]$/g, "")
          .replace(/%.*$/, "");
        if (/^(127\.|::1$|::ffff:127\.)/.test(host)) continue;
        this.violations.push(line.trim());
      }
    } catch {
      // ss missing or /proc unreadable: the watch is best effort.
    } finally {
      this.busy = false;
    }
  }
}
