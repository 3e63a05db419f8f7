// A small SMTP client (RFC 5321) for the operator's server (--smtp-url): smtp:// plain (a local relay),
// smtp+starttls:// (STARTTLS, required: a server that does not offer it is refused), smtps:// (TLS from
// the first byte), AUTH PLAIN when the URL has user:password. Certificates are verified. The server is
// the operator's, never a tenant's, so it is not subject to the destinations' outbound policy.
import net from "node:net";
import tls from "node:tls";

export interface SmtpServer {
  mode: "plain" | "starttls" | "tls";
  host: string;
  port: number;
  user?: string;
  password?: string;
}

export function parseSmtpUrl(raw: string): SmtpServer {
  const u = new URL(raw);
  const mode = u.protocol === "smtps:" ? "tls" : u.protocol === "smtp+starttls:" ? "starttls" : "plain";
  const port = Number(u.port) || (mode === "tls" ? 465 : mode === "starttls" ? 587 : 25);
  return {
    mode,
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port,
    ...(u.username ? { user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : {}),
  };
}

/** An SMTP answer: its code and its text lines. */
interface Reply {
  code: number;
  lines: string[];
}

class SmtpError extends Error {}

/** Reads replies off a socket, one at a time (multi-line replies joined). */
class Conversation {
  private buffer = "";
  private waiting?: { resolve: (r: Reply) => void; reject: (e: Error) => void };
  private pending: string[] = [];
  private failure?: Error;

  constructor(public socket: net.Socket) {
    this.attach(socket);
  }

  attach(socket: net.Socket): void {
    this.socket = socket;
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => {
      this.buffer += d;
      let i = this.buffer.indexOf("\r\n");
      while (i >= 0) {
        this.pending.push(this.buffer.slice(0, i));
        this.buffer = this.buffer.slice(i + 2);
        i = this.buffer.indexOf("\r\n");
      }
      this.deliver();
    });
    socket.on("error", (e) => this.fail(e));
    socket.on("close", () => this.fail(new SmtpError("the server closed the connection")));
  }

  detach(): void {
    this.socket.removeAllListeners("data");
    this.socket.removeAllListeners("error");
    this.socket.removeAllListeners("close");
  }

  private fail(e: Error): void {
    this.failure ??= e;
    const w = this.waiting;
    this.waiting = undefined;
    w?.reject(this.failure);
  }

  private deliver(): void {
    if (!this.waiting) return;
    const end = this.pending.findIndex((l) => /^\d{3}(?: |$)/.test(l));
    if (end < 0) return;
    const lines = this.pending.splice(0, end + 1);
    const w = this.waiting;
    this.waiting = undefined;
    w.resolve({ code: Number(lines.at(-1)!.slice(0, 3)), lines: lines.map((l) => l.slice(4)) });
  }

  read(): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.deliver();
    });
  }

  /** Sends a command and expects one of `ok` codes; else throws naming the step and the server's words. */
  async command(line: string | null, ok: number[], step: string): Promise<Reply> {
    if (line !== null) this.socket.write(`${line}\r\n`);
    const r = await this.read();
    if (!ok.includes(r.code)) throw new SmtpError(`the SMTP server refused ${step}: ${r.code} ${r.lines.join(" ").slice(0, 300)}`);
    return r;
  }
}

/**
 * A failed TLS handshake (an untrusted or expired certificate, another host name, no common protocol), said
 * as such: the operator reads "TLS with the SMTP server failed" and the reason, not a bare OpenSSL code.
 * Errors of the TCP connection itself (refused, reset before TLS began) pass unchanged.
 */
function tlsFailure(e: Error & { code?: string; syscall?: string }): Error {
  if (e instanceof SmtpError || e.syscall) return e;
  const code = e.code && !e.message.includes(e.code) ? ` (${e.code})` : "";
  return new SmtpError(`TLS with the SMTP server failed: ${e.message.replace(/[\s:]+$/, "")}${code}`);
}

/** TLS over `socket` (STARTTLS) or a new connection (smtps); certificates are verified against the host. */
function startTls(s: SmtpServer, timeoutMs: number, socket?: net.Socket): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const t = tls.connect(
      { ...(socket ? { socket } : { host: s.host, port: s.port }), servername: net.isIP(s.host) ? undefined : s.host },
      () => resolve(t),
    );
    timed(t, timeoutMs);
    t.once("error", (e) => reject(tlsFailure(e)));
  });
}

function connect(s: SmtpServer, timeoutMs: number): Promise<net.Socket> {
  if (s.mode === "tls") return startTls(s, timeoutMs);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: s.host, port: s.port }, () => resolve(socket));
    timed(socket, timeoutMs);
    socket.once("error", reject);
  });
}

function timed<T extends net.Socket>(socket: T, timeoutMs: number): T {
  socket.setTimeout(timeoutMs, () => socket.destroy(new SmtpError(`no answer within ${timeoutMs} ms`)));
  return socket;
}

/** Sends one message. Throws an Error saying what failed (connection, TLS, a refused command). */
export async function sendMail(s: SmtpServer, from: string, to: string[], message: string, timeoutMs: number, signal?: AbortSignal) {
  let socket = await connect(s, timeoutMs);
  const stop = () => socket.destroy(new SmtpError("stopped"));
  signal?.addEventListener("abort", stop, { once: true });
  const c = new Conversation(socket);
  try {
    await c.command(null, [220], "the connection");
    let ehlo = await c.command("EHLO reportgen", [250], "EHLO");
    if (s.mode === "starttls") {
      if (!ehlo.lines.some((l) => /^STARTTLS\b/i.test(l))) throw new SmtpError("the SMTP server does not offer STARTTLS");
      await c.command("STARTTLS", [220], "STARTTLS");
      c.detach();
      socket = await startTls(s, timeoutMs, socket);
      c.attach(socket);
      ehlo = await c.command("EHLO reportgen", [250], "EHLO after STARTTLS");
    }
    if (s.user !== undefined) {
      const plain = Buffer.from(`\u0000${s.user}\u0000${s.password ?? ""}`).toString("base64");
      await c.command(`AUTH PLAIN ${plain}`, [235], "the sign-in (AUTH PLAIN)");
    }
    await c.command(`MAIL FROM:<${from}>`, [250], "the sender");
    for (const rcpt of to) await c.command(`RCPT TO:<${rcpt}>`, [250, 251], `the recipient ${rcpt}`);
    await c.command("DATA", [354], "DATA");
    // Dot-stuffing (RFC 5321 4.5.2): a line starting with "." gets another.
    socket.write(`${message.replace(/\r\n\./g, "\r\n..")}\r\n.\r\n`);
    await c.command(null, [250], "the message");
    socket.write("QUIT\r\n");
  } finally {
    signal?.removeEventListener("abort", stop);
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  }
}
