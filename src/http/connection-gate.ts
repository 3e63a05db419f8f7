// The connection gate: a small TCP front that bounds how many client connections are open at once.
//
// Bun.serve has no connection count, no accept hook and no max-connections option (Bun 1.4.5), and a
// connection that has not sent a whole request head never reaches JavaScript: nothing in the HTTP
// server can count or refuse it, so 20 000 slow senders reached the open-file limit. The gate listens
// on the public address with Bun.listen, counts the connections it holds, and pipes the bytes of each
// to the real HTTP server, which listens on 127.0.0.1 at an ephemeral port. At the cap a new
// connection is answered at once with a complete 503 server_busy and closed.
//
// File descriptors: a connection that has sent nothing holds one (its own socket); the pipe to the
// HTTP server is opened at its first byte and adds two (our end and the server's end, both in this
// process). A connection that sends nothing is closed after the idle timeout; once bytes flow, the
// HTTP server's own timeouts (head ~10 s, idle, body) apply and its closing closes the client's side.
//
// Cost, measured on 2 cores under load from other work (bun scripts/gate-bench.ts: the
// executable with and without the gate, same run, 4 keep-alive clients, server CPU per request): GET
// /healthz +0.01 to 0.03 ms (0.10 -> 0.12 ms); a 1.3 MB PDF download +0.7 to 1.1 ms (0.56 -> 1.6 ms),
// i.e. about 0.6 to 0.8 ms per MB relayed. Bun reads the big chunks (~450 KB per read), so the cost is the
// extra trip through loopback and user space that Bun.serve's sendfile avoids when it faces the client
// directly; Bun has no splice(). For a typical 40 KB invoice that is ~0.03 ms, 0.05% of the ~55 ms of
// CPU a PDF costs; for a 1 MB PDF about 1.3%. Where that matters, put a proxy that caps connections in
// front (nginx limit_conn / worker_connections) and run with --max-connections 0.
import type { Socket, TCPSocketListener } from "bun";
import type { Logger } from "../lib/logger";

export interface GateOptions {
  hostname: string;
  port: number;
  maxConnections: number;
  /** A connection that sends nothing for this long is closed. */
  idleTimeoutMs: number;
  logger: Logger;
}

/** Bytes queued on one direction before the sending side is paused. */
const HIGH_WATER = 64 * 1024;
/** After the answer is written, how long a client still sending may take to close before it is cut off. */
const LINGER_MS = 5_000;
/** Refused connections kept open at once so their clients can read the 503; beyond, they are closed at once. */
const MAX_LINGERING_REFUSALS = 256;
/** At most one "refusing connections" warning per this period, with the count refused since the last. */
const WARN_EVERY_MS = 10_000;

/** Relayed connections' real client addresses, by "<HTTP server port>/<our local port>" (see peerOf). */
const relayed = new Map<string, { address: string; port: number }>();

/**
 * The address of the client that sent `request`: through the gate, the real client's, not the gate's
 * loopback end. Every caller that needs a client address asks here.
 */
export function peerOf(
  server: { port?: number; requestIP(r: Request): { address: string; port: number } | null } | null | undefined,
  request: Request,
): string | undefined {
  const ip = server?.requestIP(request);
  if (!ip) return undefined;
  return relayed.get(`${server!.port}/${ip.port}`)?.address ?? ip.address;
}

type Side = Socket<Conn>;

class Conn {
  client: Side;
  upstream?: Side;
  connecting = false;
  /** Bytes written by the client, not yet taken by the HTTP server. */
  toUpstream: Uint8Array[] = [];
  /** Bytes from the HTTP server, not yet taken by the client. */
  toClient: Uint8Array[] = [];
  clientEnded = false;
  upstreamDone = false;
  closed = false;
  /** Refused at the cap: written its 503, not counted. */
  refused = false;
  key?: string;
  linger?: Timer;
  constructor(client: Side) {
    this.client = client;
  }
}

const queued = (q: Uint8Array[]) => q.reduce((n, b) => n + b.byteLength, 0);

/** Writes what is queued, then `data`; keeps what the socket did not take. True when nothing is left. */
function send(to: Side | undefined, q: Uint8Array[], data?: Uint8Array): boolean {
  if (data) {
    // Bun hands `data` a fresh buffer for every read (checked with Bun 1.4.5), so what must wait is kept without a copy.
    if (q.length || !to) {
      q.push(data);
      return false;
    }
    const n = Math.max(0, to.write(data));
    if (n < data.byteLength) q.push(data.subarray(n));
    return n === data.byteLength;
  }
  if (!to) return q.length === 0;
  while (q.length) {
    const head = q[0]!;
    const n = Math.max(0, to.write(head));
    if (n < head.byteLength) {
      q[0] = head.subarray(n);
      return false;
    }
    q.shift();
  }
  return true;
}

export class ConnectionGate {
  private listener?: TCPSocketListener<Conn>;
  private open = 0;
  private lingering = 0;
  private refusedSinceWarn = 0;
  private warnTimer?: Timer;
  private readonly conns = new Set<Conn>();
  /** Connections refused at the cap since start. */
  refused = 0;

  /** The HTTP server's port on 127.0.0.1, and the complete HTTP response written to a connection over the cap. */
  private upstream: { port: number; busyResponse: Uint8Array } = { port: 0, busyResponse: new Uint8Array() };

  constructor(readonly o: GateOptions) {}

  /** The public port, once started. */
  get port(): number | undefined {
    return this.listener?.port;
  }

  /** Connections currently held (relayed or waiting for their first byte). */
  get connections(): number {
    return this.open;
  }

  /** Listens on the public address, relaying to the HTTP server on `upstream.port`. */
  start(upstream: { port: number; busyResponse: Uint8Array }): void {
    this.upstream = upstream;
    this.listener = Bun.listen<Conn>({
      hostname: this.o.hostname,
      port: this.o.port,
      allowHalfOpen: true,
      socket: {
        binaryType: "uint8array",
        open: (s) => {
          this.accept(s);
        },
        data: (s, d) => this.fromClient(s.data, d),
        drain: (s) => this.clientDrained(s.data),
        end: (s) => {
          this.clientEnd(s.data);
        },
        timeout: (s) => this.clientIdle(s.data),
        close: (s) => this.clientClosed(s.data),
        // Called when a handler above throws (a bug): the socket closes after it, close() cleans up.
        error: (_s, error) => this.o.logger.error("connection gate: handler failed", { error }),
      },
    });
  }

  /** Stops accepting; connections already open keep being served until the HTTP server ends them. */
  stopAccepting(): void {
    this.listener?.stop(false);
  }

  /**
   * After the HTTP server has stopped: closes connections that never sent a byte, and waits (at most
   * `ms`) for relayed ones to finish writing the HTTP server's last answers to their clients.
   */
  async drain(ms: number): Promise<void> {
    for (const c of this.conns) if (!c.upstream && !c.connecting) this.closeBoth(c);
    const busy = () => [...this.conns].some((c) => !c.upstreamDone || c.toClient.length > 0);
    const deadline = performance.now() + ms;
    while (busy() && performance.now() < deadline) await Bun.sleep(25);
  }

  /** Closes every connection still open (after the HTTP server has drained). */
  close(): void {
    this.listener?.stop(true);
    for (const c of this.conns) this.closeBoth(c);
    clearTimeout(this.warnTimer);
  }

  private accept(s: Side) {
    if (this.o.maxConnections > 0 && this.open >= this.o.maxConnections) {
      this.refuse(s);
      return;
    }
    const c = new Conn(s);
    s.data = c;
    this.open++;
    this.conns.add(c);
    s.setNoDelay(true);
    s.timeout(this.idleSeconds);
  }

  /**
   * Bun checks socket timeouts on a 4-second sweep: timeout(n) fires at the ((n + 3) >> 2)-th sweep
   * from now, and the first sweep can be a moment away, so n = 1 closed a fresh connection after
   * 318 ms once (Bun 1.4.5: n = 1 fires within 0-4 s, n = 5 within 4-8 s, whenever other sockets keep
   * the sweep running; tests/integration/connection-gate.test.ts guards the floor). Four seconds more
   * make the timeout a floor: it fires between the configured time and about four seconds after it,
   * never before.
   */
  private get idleSeconds() {
    return Math.max(1, Math.ceil(this.o.idleTimeoutMs / 1000)) + 4;
  }

  /**
   * Over the cap: the 503 is written at once, then the connection is closed. It stays readable for a
   * moment, its bytes discarded, so a client that is still sending its request reads the answer
   * instead of a reset (closing a socket with unread bytes sends RST, which can destroy the answer).
   */
  private refuse(s: Side) {
    this.refused++;
    this.noteRefusal();
    s.data = new Conn(s);
    s.data.closed = true; // nothing to relay: what it sends is discarded
    s.write(this.upstream.busyResponse);
    if (this.lingering >= MAX_LINGERING_REFUSALS) {
      s.end();
      return;
    }
    this.lingering++;
    s.data.refused = true;
    s.shutdown();
    s.data.linger = setTimeout(() => s.end(), LINGER_MS);
  }

  private noteRefusal() {
    this.refusedSinceWarn++;
    if (!this.warnTimer) this.warnRefusals();
  }

  private warnRefusals() {
    if (this.refusedSinceWarn === 0) {
      this.warnTimer = undefined;
      return;
    }
    this.o.logger.warn("connections refused: the connection cap is reached (503 server_busy)", {
      refused: this.refusedSinceWarn,
      max_connections: this.o.maxConnections,
      open: this.open,
    });
    this.refusedSinceWarn = 0;
    this.warnTimer = setTimeout(() => this.warnRefusals(), WARN_EVERY_MS);
    this.warnTimer.unref();
  }

  private fromClient(c: Conn, d: Uint8Array) {
    if (c.closed || c.upstreamDone) return; // refused, or the server has answered and closed: discard
    if (!c.upstream && !c.connecting) {
      c.client.timeout(0); // from here the HTTP server's own timeouts apply
      this.connect(c);
    }
    if (!send(c.upstream, c.toUpstream, d) || queued(c.toUpstream) > HIGH_WATER) c.client.pause();
  }

  private connect(c: Conn) {
    c.connecting = true;
    Bun.connect<Conn>({
      hostname: "127.0.0.1",
      port: this.upstream.port,
      allowHalfOpen: true,
      data: c,
      socket: {
        binaryType: "uint8array",
        open: (u) => this.upstreamOpen(u),
        data: (u, d) => this.fromUpstream(u.data, d),
        drain: (u) => this.upstreamDrained(u.data),
        end: (u) => this.upstreamEnd(u.data),
        close: (u) => this.upstreamEnd(u.data),
        connectError: (u) => this.upstreamEnd(u.data),
        error: (_u, error) => this.o.logger.error("connection gate: handler failed", { error }),
      },
    }).catch(() => {}); // connectError handles it
  }

  private upstreamOpen(u: Side) {
    const c = u.data;
    c.connecting = false;
    if (c.closed) return u.terminate();
    c.upstream = u;
    u.setNoDelay(true);
    // Registered before any byte reaches the HTTP server, so its first request already resolves.
    c.key = `${this.upstream.port}/${u.localPort}`;
    relayed.set(c.key, { address: c.client.remoteAddress, port: c.client.remotePort });
    this.upstreamDrained(c);
  }

  private fromUpstream(c: Conn, d: Uint8Array) {
    if (c.closed) return;
    if (!send(c.client, c.toClient, d) || queued(c.toClient) > HIGH_WATER) {
      c.upstream?.pause();
      // A client that stops reading would hold its slot forever (the HTTP server's own timers cannot be
      // seen through a paused relay): it must take some bytes every idle timeout.
      c.client.timeout(this.idleSeconds);
    }
  }

  private upstreamDrained(c: Conn) {
    if (c.closed || !c.upstream) return;
    if (!send(c.upstream, c.toUpstream)) return;
    if (c.clientEnded) c.upstream.shutdown();
    else c.client.resume();
  }

  private clientDrained(c: Conn) {
    if (c.closed) return;
    // Progress: the client took bytes, so its idle timer starts over (or stops once nothing waits).
    if (!send(c.client, c.toClient)) return c.client.timeout(this.idleSeconds);
    c.client.timeout(0);
    if (c.upstreamDone) this.finish(c);
    else c.upstream?.resume();
  }

  /** The client sent FIN: pass it on once its bytes are through. */
  private clientEnd(c: Conn) {
    if (c.closed || c.upstreamDone) {
      c.client.end();
      return;
    }
    c.clientEnded = true;
    if (!c.upstream && !c.connecting) return this.closeBoth(c);
    if (c.upstream && c.toUpstream.length === 0) c.upstream.shutdown();
  }

  /** The HTTP server ended or closed the connection (or could not be reached): the client gets the rest, then FIN. */
  private upstreamEnd(c: Conn) {
    if (c.upstreamDone) return;
    c.upstreamDone = true;
    c.connecting = false;
    if (c.key) relayed.delete(c.key);
    if (c.closed) return;
    c.toUpstream = [];
    c.client.resume(); // whatever the client still sends is read and discarded
    if (send(c.client, c.toClient)) this.finish(c);
  }

  /**
   * Everything is written to the client: FIN, then the socket stays readable (what arrives is discarded)
   * until the client closes too, at most LINGER_MS. Closing at once could reset a client still sending,
   * and a reset can destroy the answer before it is read. end() after shutdown() releases the
   * descriptor; the kernel still delivers what is left in the send buffer.
   */
  private finish(c: Conn) {
    c.upstream?.end();
    c.client.shutdown();
    c.linger ??= setTimeout(() => c.client.end(), LINGER_MS);
  }

  /** The client sent nothing, or read nothing of an answer waiting for it, within the idle timeout. */
  private clientIdle(c: Conn) {
    if ((!c.upstream && !c.connecting) || c.toClient.length > 0) this.closeBoth(c);
  }

  private closeBoth(c: Conn) {
    c.client.terminate();
    c.upstream?.terminate();
  }

  private clientClosed(c: Conn | undefined) {
    if (!c) return;
    clearTimeout(c.linger);
    if (c.refused) {
      this.lingering--;
      return;
    }
    if (c.closed) return;
    c.closed = true;
    this.open--;
    this.conns.delete(c);
    c.toClient = [];
    c.toUpstream = [];
    if (c.upstream && !c.upstreamDone) c.upstream.terminate();
  }
}
