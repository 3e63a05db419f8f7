// E-mail delivery over TLS, against Debian's python3-aiosmtpd started by the test with certificates the
// test makes (openssl): a private CA the operator trusts through NODE_EXTRA_CA_CERTS (how reportgen trusts
// a private CA: docs/delivery.md), a server certificate it issued for 127.0.0.1, and certificates it did
// not issue. Real server processes: NODE_EXTRA_CA_CERTS is read when the process starts.
// - smtp+starttls://: the message arrives after STARTTLS, the PDF attachment's sha256 is the report's;
// - smtps://: the same, TLS from the first byte;
// - a certificate the client does not trust (self-signed, or the CA's but for another name) is refused,
//   the error says so, and nothing but EHLO and STARTTLS was sent before TLS;
// - smtp+starttls:// against a server that does not offer STARTTLS fails: no silent downgrade to plain.
// A server's --smtp-url is fixed for its life, so each points at a TCP forwarder that the test turns to
// the sink of each case (it passes bytes through, untouched).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256 } from "../helpers/delivery";
import { api, freePort, runCli, type ServerProcess, sourceCommand, startServer } from "../helpers/process";
import { testIf } from "../helpers/shared";
import { certificateAuthority, serverCertificate } from "../support/openssl";
import { haveAiosmtpd, type SmtpSink, startSmtpSink } from "../support/smtp-sink";

setDefaultTimeout(90_000);
const missing = haveAiosmtpd() ? undefined : "Debian's python3-aiosmtpd is not installed (scripts/setup --test installs it)";
const dir = mkdtempSync(join(tmpdir(), "reportgen-smtp-tls-"));

interface Forwarder {
  port: number;
  to: (port: number) => void;
  close: () => void;
}

/** A TCP forwarder on loopback to the port given last. */
async function forwarder(): Promise<Forwarder> {
  let target = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(target, "127.0.0.1");
    client.pipe(upstream).on("error", () => upstream.destroy());
    upstream.pipe(client).on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { port, to: (p) => (target = p), close: () => server.close() };
}

interface Side {
  server: ServerProcess;
  key: string;
  forward: Forwarder;
  dataDir: string;
}

const sinks: Record<string, SmtpSink> = {};
const sides: Partial<Record<"starttls" | "smtps", Side>> = {};

async function startSide(scheme: "smtp+starttls" | "smtps"): Promise<Side> {
  const dataDir = mkdtempSync(join(dir, "data-"));
  const key = runCli(sourceCommand, ["admin", "create-key", "--name", "smtp-tls", "--data-dir", dataDir]).stdout.trim();
  const forward = await forwarder();
  const server = await startServer(sourceCommand, dataDir, {
    extraArgs: ["--smtp-url", `${scheme}://127.0.0.1:${forward.port}`, "--smtp-from", "reports@acme.example"],
    env: {
      NODE_EXTRA_CA_CERTS: join(dir, "ca.crt"),
      REPORTGEN_DELIVERY_RETRY_BASE: "200ms",
      REPORTGEN_DELIVERY_RETRY_WINDOW: "2s",
      REPORTGEN_DELIVERY_TIMEOUT: "10s",
    },
  });
  return { server, key, forward, dataDir };
}

beforeAll(async () => {
  if (missing) return;
  certificateAuthority(dir, "ca", "/CN=reportgen test CA");
  serverCertificate(dir, "smtp", "IP:127.0.0.1,DNS:localhost", "ca");
  serverCertificate(dir, "stranger", "IP:127.0.0.1");
  serverCertificate(dir, "elsewhere", "DNS:smtp.elsewhere.example", "ca");
  const cert = (name: string) => ({ cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) });
  const [starttls, smtps, plain, stranger, strangerSmtps, elsewhere] = await Promise.all([
    startSmtpSink({ tls: { mode: "starttls", ...cert("smtp") } }),
    startSmtpSink({ tls: { mode: "smtps", ...cert("smtp") } }),
    startSmtpSink(),
    startSmtpSink({ tls: { mode: "starttls", ...cert("stranger") } }),
    startSmtpSink({ tls: { mode: "smtps", ...cert("stranger") } }),
    startSmtpSink({ tls: { mode: "starttls", ...cert("elsewhere") } }),
  ]);
  Object.assign(sinks, { starttls, smtps, plain, stranger, strangerSmtps, elsewhere });
  [sides.starttls, sides.smtps] = await Promise.all([startSide("smtp+starttls"), startSide("smtps")]);
}, 90_000);

afterAll(async () => {
  for (const side of Object.values(sides)) {
    side.server.proc.kill("SIGTERM");
    await side.server.proc.exited;
    side.forward.close();
  }
  await Promise.all(Object.values(sinks).map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const call = (s: Side, method: string, path: string, body?: unknown) => api(s.server.baseUrl, s.key, method, path, body);

async function emailDestination(s: Side, to: string): Promise<string> {
  const r = await call(s, "POST", "/destinations", { name: "buyers", type: "email", email: { to: [to] } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id;
}

/** Generates an invoice delivered to `destination`; its deliveries once none is pending, and its PDF. */
async function deliverOne(s: Side, destination: string) {
  const r = await call(s, "POST", "/generate-pdf-async", {
    engine: "raw",
    html_template: "<h1>Invoice</h1>",
    options: { deliver: [{ destination_id: destination, subject: "Invoice {report_id}" }] },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const id = r.body.report_id as string;
  const end = Date.now() + 60_000;
  let report: any;
  do {
    report = (await call(s, "GET", `/reports/${id}`)).body.data;
    if (report.status === "succeeded" && report.deliveries.every((d: any) => d.status !== "pending")) break;
    await Bun.sleep(100);
  } while (Date.now() < end);
  const link = (await call(s, "GET", `/reports/${id}/download`)).body.data as string;
  const pdf = new Uint8Array(await (await fetch(link)).arrayBuffer());
  return { id, deliveries: report.deliveries as { status: string; error: string | null; attempts: number }[], pdf };
}

/** The message the sink received for report `id`: exactly one, with the report's PDF attached. */
function expectDelivered(sink: SmtpSink, id: string, pdf: Uint8Array) {
  const got = sink.messages().filter((m) => m.subject === `Invoice ${id}`);
  expect(got).toHaveLength(1);
  expect(got[0]!.attachments.map((a) => [a.content_type, a.sha256])).toEqual([["application/pdf", sha256(pdf)]]);
}

describe("e-mail delivery over TLS (aiosmtpd with the test's certificates)", () => {
  testIf(missing)("smtp+starttls://: STARTTLS, then the message; the attachment is the report's PDF", async () => {
    const s = sides.starttls!;
    s.forward.to(sinks.starttls!.port);
    const { id, deliveries, pdf } = await deliverOne(s, await emailDestination(s, "ap@buyer.example"));
    expect(deliveries[0]).toMatchObject({ status: "delivered", attempts: 1, error: null });
    expectDelivered(sinks.starttls!, id, pdf);
    // STARTTLS came before the envelope (aiosmtpd also refuses MAIL before it).
    const commands = sinks.starttls!.commands();
    expect(commands.indexOf("STARTTLS")).toBeGreaterThan(-1);
    expect(commands.indexOf("STARTTLS")).toBeLessThan(commands.findIndex((c) => c.startsWith("MAIL FROM:")));
  });

  testIf(missing)("smtps://: TLS from the first byte; the attachment is the report's PDF", async () => {
    const s = sides.smtps!;
    s.forward.to(sinks.smtps!.port);
    const { id, deliveries, pdf } = await deliverOne(s, await emailDestination(s, "ap@buyer.example"));
    expect(deliveries[0]).toMatchObject({ status: "delivered", attempts: 1, error: null });
    expectDelivered(sinks.smtps!, id, pdf);
  });

  testIf(missing)("a certificate the client does not trust is refused, and nothing is sent in clear", async () => {
    const s = sides.starttls!;
    s.forward.to(sinks.stranger!.port);
    const { deliveries } = await deliverOne(s, await emailDestination(s, "ap@buyer.example"));
    expect(deliveries[0]!.status).toBe("failed");
    expect(deliveries[0]!.error).toMatch(/^TLS with the SMTP server failed: .*certificate/i);
    expect(sinks.stranger!.messages()).toEqual([]);
    // Only what comes before TLS: EHLO and STARTTLS, never the envelope or the message.
    expect(new Set(sinks.stranger!.commands())).toEqual(new Set(["EHLO reportgen", "STARTTLS"]));

    // smtps: the same refusal before any command at all.
    const t = sides.smtps!;
    t.forward.to(sinks.strangerSmtps!.port);
    const tested = await call(t, "POST", `/destinations/${await emailDestination(t, "ap@buyer.example")}/test`, {});
    expect(tested.body.data.ok).toBe(false);
    expect(tested.body.data.error).toMatch(/^TLS with the SMTP server failed: .*certificate/i);
    expect(sinks.strangerSmtps!.commands()).toEqual([]);
  });

  testIf(missing)("a certificate of the trusted CA but for another name is refused", async () => {
    const s = sides.starttls!;
    s.forward.to(sinks.elsewhere!.port);
    const tested = await call(s, "POST", `/destinations/${await emailDestination(s, "ap@buyer.example")}/test`, {});
    expect(tested.body.data.ok).toBe(false);
    expect(tested.body.data.error).toMatch(/^TLS with the SMTP server failed: .*(127\.0\.0\.1|altname|host)/i);
    expect(sinks.elsewhere!.messages()).toEqual([]);
    expect(sinks.elsewhere!.commands().some((c) => c.startsWith("MAIL"))).toBe(false);
  });

  testIf(missing)("smtp+starttls:// against a server without STARTTLS fails: no silent downgrade", async () => {
    const s = sides.starttls!;
    s.forward.to(sinks.plain!.port);
    const { deliveries } = await deliverOne(s, await emailDestination(s, "ap@buyer.example"));
    expect(deliveries[0]).toMatchObject({ status: "failed", error: "the SMTP server does not offer STARTTLS" });
    expect(sinks.plain!.messages()).toEqual([]);
    expect(new Set(sinks.plain!.commands())).toEqual(new Set(["EHLO reportgen"]));
  });
});
