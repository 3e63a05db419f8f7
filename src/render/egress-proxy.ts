// The checking egress proxy used when the operator allow-lists public https hosts.
//
// Chromium's own resolver is closed (--host-resolver-rules) except for this proxy, so every
// connection a report page makes arrives here. Only `CONNECT <allow-listed name>:443` is served:
// the proxy resolves the name itself, refuses it if ANY address is not public (loopback, private,
// link-local, metadata, mapped forms...), and connects to the address it checked, never to the
// name again, so a DNS answer that changes between check and use (rebinding) cannot slip through.
// A redirect to another host is a new CONNECT and is checked the same way.

import { lookup as dnsLookup } from "node:dns/promises";
import net from "node:net";
import type { Logger } from "../lib/logger";
import { isIpLiteral, isPublicAddress } from "./address-policy";
import { hostAllowed } from "./network-policy";

export interface EgressProxy {
  /** Binds a free loopback port. */
  start(): Promise<void>;
  /** http://127.0.0.1:<port>, for Chromium's --proxy-server; known once started. */
  readonly url: string;
  close(): Promise<void>;
}

/** An upstream connection the proxy opens to a checked address. */
export interface UpstreamTarget {
  /** The checked IP address (never a name). */
  address: string;
  port: number;
  family: 4 | 6;
  /** The allow-listed name the client asked for, for logs only. */
  host: string;
}

export interface EgressProxyOptions {
  allowHosts: string[];
  logger: Logger;
  /** Name resolution, replaceable in tests. Returns every address of the name. */
  lookup?: (hostname: string) => Promise<string[]>;
  /** Opens the upstream socket, replaceable in tests. Default: net.connect to the checked address. */
  connect?: (target: UpstreamTarget) => net.Socket;
  /** Tunnels (and connections still in their handshake) served at once; more are answered 503. */
  maxTunnels?: number;
  /** A tunnel with no traffic either way for this long is closed. */
  idleTimeoutMs?: number;
  /** Time allowed for each of: the CONNECT request head, the lookup, the upstream connect. */
  handshakeTimeoutMs?: number;
}

const MAX_HEAD_BYTES = 8 * 1024;
const HTTPS_PORT = 443;
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;

function defaultLookup(hostname: string): Promise<string[]> {
  return dnsLookup(hostname, { all: true, verbatim: true }).then((rs) => rs.map((r) => r.address));
}

function defaultConnect(t: UpstreamTarget): net.Socket {
  return net.connect({ host: t.address, port: t.port, family: t.family });
}

class Refusal extends Error {
  constructor(
    readonly status: 403 | 502 | 503 | 504,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Starts a proxy at once (tests, tools). */
export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  const proxy = createEgressProxy(opts);
  await proxy.start();
  return proxy;
}

/** The proxy, not yet listening: start() binds it. */
export function createEgressProxy(opts: EgressProxyOptions): EgressProxy {
  const allowHosts = [...opts.allowHosts];
  const log = opts.logger;
  const lookup = opts.lookup ?? defaultLookup;
  const connect = opts.connect ?? defaultConnect;
  const maxTunnels = opts.maxTunnels ?? 64;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 30_000;
  const handshakeTimeoutMs = opts.handshakeTimeoutMs ?? 10_000;
  const sockets = new Set<net.Socket>();
  let active = 0;

  /** Frees a connection's tunnel slot; called on close, or as soon as it is refused. */
  const releases = new WeakMap<net.Socket, () => void>();

  const refuse = (client: net.Socket, status: number, reason: string, fields: Record<string, unknown>) => {
    log.warn("egress proxy refused a connection", { status, reason, ...fields });
    releases.get(client)?.();
    if (!client.destroyed)
      client.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`, () =>
        client.destroy(),
      );
    setTimeout(() => client.destroy(), 1000).unref?.();
  };

  const handle = (client: net.Socket) => {
    sockets.add(client);
    active++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      active--;
    };
    releases.set(client, release);
    client.on("close", () => {
      release();
      sockets.delete(client);
    });
    client.on("error", () => client.destroy());
    if (active > maxTunnels) {
      refuse(client, 503, "too many tunnels", { max: maxTunnels });
      return;
    }

    let head = Buffer.alloc(0);
    let done = false;
    const handshakeTimer = setTimeout(() => {
      if (!done) {
        done = true;
        refuse(client, 504, "handshake timed out", {});
      }
    }, handshakeTimeoutMs);
    client.once("close", () => clearTimeout(handshakeTimer));

    const onData = (chunk: Buffer) => {
      if (done) return;
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) {
          done = true;
          clearTimeout(handshakeTimer);
          client.off("data", onData);
          refuse(client, 403, "request head too large", {});
        }
        return;
      }
      done = true;
      client.off("data", onData);
      client.pause();
      const rest = head.subarray(end + 4);
      const requestLine = head.subarray(0, end).toString("latin1").split("\r\n", 1)[0] ?? "";
      void tunnel(client, requestLine, rest)
        .catch((e: unknown) => {
          const r = e instanceof Refusal ? e : new Refusal(502, (e as Error).message);
          refuse(client, r.status, r.reason, (e as { fields?: Record<string, unknown> }).fields ?? {});
        })
        .finally(() => clearTimeout(handshakeTimer));
    };
    client.on("data", onData);
  };

  const withFields = (r: Refusal, fields: Record<string, unknown>) => Object.assign(r, { fields });

  const tunnel = async (client: net.Socket, requestLine: string, rest: Buffer): Promise<void> => {
    const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(requestLine);
    if (!m) throw withFields(new Refusal(403, "malformed request"), {});
    const [, method, target] = m as unknown as [string, string, string];
    if (method !== "CONNECT") {
      // A plain proxy request (http://...): never served. Log the host only, not the path or query.
      let host: string | undefined;
      try {
        host = new URL(target).host;
      } catch {}
      throw withFields(new Refusal(403, "only CONNECT to port 443 is allowed"), { method, host: host?.slice(0, 255) });
    }
    const colon = target.lastIndexOf(":");
    const host = (colon > 0 ? target.slice(0, colon) : target).toLowerCase();
    const port = colon > 0 ? target.slice(colon + 1) : "";
    const fields = { host: host.slice(0, 255), port: port.slice(0, 8) };
    if (port !== String(HTTPS_PORT)) throw withFields(new Refusal(403, "only port 443 is allowed"), fields);
    if (isIpLiteral(host)) throw withFields(new Refusal(403, "IP literal hosts are not allowed"), fields);
    if (!HOSTNAME.test(host)) throw withFields(new Refusal(403, "malformed host name"), fields);
    if (!hostAllowed(host, allowHosts)) throw withFields(new Refusal(403, "host is not allow-listed"), fields);

    let addresses: string[];
    try {
      addresses = await withDeadline(lookup(host.replace(/\.$/, "")), handshakeTimeoutMs, "lookup timed out");
    } catch (e) {
      throw withFields(new Refusal(502, "lookup failed"), { ...fields, error: (e as Error).message });
    }
    if (client.destroyed) return;
    if (addresses.length === 0) throw withFields(new Refusal(502, "name has no addresses"), fields);
    const bad = addresses.filter((a) => !isPublicAddress(a));
    if (bad.length) throw withFields(new Refusal(403, "name resolves to a non-public address"), { ...fields, addresses: bad.slice(0, 8) });

    const address = addresses[0]!.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
    const family: 4 | 6 = address.includes(":") ? 6 : 4;
    const upstream = await new Promise<net.Socket>((resolve, reject) => {
      const s = connect({ address, port: HTTPS_PORT, family, host });
      sockets.add(s);
      s.once("close", () => sockets.delete(s));
      const timer = setTimeout(() => fail(new Error("connect timed out")), handshakeTimeoutMs);
      const onClientClose = () => fail(new Error("client went away"));
      const fail = (e: Error) => {
        clearTimeout(timer);
        client.off("close", onClientClose);
        s.destroy();
        reject(withFields(new Refusal(502, "upstream connect failed"), { ...fields, address, error: e.message }));
      };
      s.once("error", fail);
      client.once("close", onClientClose);
      s.once("connect", () => {
        clearTimeout(timer);
        s.off("error", fail);
        client.off("close", onClientClose);
        resolve(s);
      });
    });
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    log.debug("egress proxy tunnel opened", { ...fields, address });
    upstream.on("error", () => {
      upstream.destroy();
      client.destroy();
    });
    client.removeAllListeners("error");
    client.on("error", () => {
      client.destroy();
      upstream.destroy();
    });
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (rest.length) upstream.write(rest);

    // Idle timeout, counted over traffic in either direction.
    let idleTimer: Timer | undefined;
    const closeBoth = () => {
      clearTimeout(idleTimer);
      client.destroy();
      upstream.destroy();
    };
    const touch = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(closeBoth, idleTimeoutMs);
    };
    touch();
    client.on("data", (d: Buffer) => {
      touch();
      if (!upstream.write(d)) {
        client.pause();
        upstream.once("drain", () => client.resume());
      }
    });
    upstream.on("data", (d: Buffer) => {
      touch();
      if (!client.write(d)) {
        upstream.pause();
        client.once("drain", () => upstream.resume());
      }
    });
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
    client.on("close", closeBoth);
    upstream.on("close", closeBoth);
    client.resume();
  };

  const server = net.createServer(handle);
  let port: number | undefined;

  return {
    start: () =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => {
          server.off("error", reject);
          port = (server.address() as net.AddressInfo).port;
          log.info("egress proxy listening", { port, allow_hosts: allowHosts });
          resolve();
        });
      }),
    get url() {
      if (port === undefined) throw new Error("the egress proxy is not started");
      return `http://127.0.0.1:${port}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        sockets.clear();
        server.close(() => resolve());
        // Bun may not call back when nothing was ever connected; never hang shutdown on it.
        setTimeout(resolve, 1000).unref?.();
      }),
  };
}

function withDeadline<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: Timer | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
