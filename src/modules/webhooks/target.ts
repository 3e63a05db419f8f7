// Where a webhook may be sent: the same closed-network policy as rendering. A target must be public
// https, unless the operator allow-listed its host (--webhook-allow-hosts), which alone may be reached
// at a private or loopback address or over plain http. Every address a name resolves to is checked,
// and the connection goes to the address that was checked (never to the name again), so a DNS answer
// that changes between check and use cannot slip through. Redirects are never followed.

import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Config } from "../../config/settings";
import { validationFailed } from "../../lib/errors";
import { isIpLiteral, isPublicAddress, parseIPv4, parseIPv6 } from "../../render/address-policy";
import { hostAllowed } from "../../render/network-policy";

export const WEBHOOK_URL_MAX = 2048;

/** Why a target was refused by the network policy: a final outcome, retrying would not change it. */
export class WebhookRefused extends Error {}

/** Link-local addresses (cloud metadata lives there: 169.254.169.254, fd00:ec2::254 aside) are refused even for allow-listed hosts. */
function isLinkLocalOrMetadata(ip: string): boolean {
  const s = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (s.includes(":")) {
    const g = parseIPv6(s);
    if (!g) return true;
    if ((g[0]! & 0xffc0) === 0xfe80) return true; // fe80::/10
    if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return true; // AWS IPv6 metadata
    // IPv4-mapped/compatible forms of a link-local IPv4 address.
    const v4 = g.slice(0, 5).every((x) => x === 0) && (g[5] === 0 || g[5] === 0xffff) ? ((g[6]! << 16) | g[7]!) >>> 0 : undefined;
    return v4 !== undefined && v4 >>> 16 === 0xa9fe;
  }
  const v4 = parseIPv4(s);
  if (v4 === undefined) return true;
  return v4 >>> 16 === 0xa9fe || v4 === ALIBABA_METADATA; // 169.254.0.0/16, Alibaba Cloud's metadata address
}

const ALIBABA_METADATA = parseIPv4("100.100.100.200");

const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"]);

export interface TargetPolicy {
  allowHosts: readonly string[];
  /** The setting that allow-lists hosts, named in refusals (the TSA has its own). */
  allowSetting?: string;
  /** The field named in refusals of the URL itself. */
  field?: string;
}

/** How webhook-style calls go out: the webhook sender's and the schedules' run_failed events alike. */
export interface OutboundPolicy {
  allowHosts: string[];
  timeoutMs: number;
  retryWindowMs: number;
  retryBaseMs: number;
}

/** The webhook settings (--webhook-allow-hosts, --webhook-timeout, --webhook-retry-*), read in one place. */
export const webhookPolicy = (c: Config): OutboundPolicy => ({
  allowHosts: c.webhookAllowHosts,
  timeoutMs: c.webhookTimeout,
  retryWindowMs: c.webhookRetryWindow,
  retryBaseMs: c.webhookRetryBase,
});

const allowSetting = (p: TargetPolicy) => p.allowSetting ?? "--webhook-allow-hosts";

/**
 * Checks a webhook URL as submitted (no DNS): scheme, credentials, length, and what its host
 * literally is. Returns the normalised URL (WHATWG parsing: "http://0x7f.1" is "http://127.0.0.1/").
 * Throws validation_failed naming field webhook.url.
 */
export function checkWebhookUrl(raw: string, policy: TargetPolicy): string {
  const field = policy.field ?? "webhook.url";
  const refuse = (problem: string) => validationFailed(`${field} ${problem}`, [{ field, problem }]);
  if (raw.length > WEBHOOK_URL_MAX) throw refuse(`must be at most ${WEBHOOK_URL_MAX} characters`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw refuse("must be an absolute http(s) URL");
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw refuse("must be an https URL");
  if (u.username || u.password) throw refuse("must not contain credentials (user:password@); verify events by their signature instead");
  u.hash = "";
  const host = u.hostname.toLowerCase();
  const allowListed = hostAllowed(host, policy.allowHosts);
  if (METADATA_NAMES.has(host.replace(/\.$/, ""))) throw refuse("names a cloud metadata service, which is never reachable");
  if (u.protocol === "http:" && !allowListed)
    throw refuse(`must use https (plain http only for hosts the operator allow-listed with ${allowSetting(policy)})`);
  if (isIpLiteral(host)) {
    if (isLinkLocalOrMetadata(host)) throw refuse("is a link-local or metadata address, which is never reachable");
    if (!allowListed && !isPublicAddress(host.replace(/^\[|\]$/g, "")))
      throw refuse(`is a loopback, private or otherwise non-public address (allowed only for hosts on ${allowSetting(policy)})`);
  } else if (!allowListed && /(^|\.)localhost$/.test(host.replace(/\.$/, ""))) {
    throw refuse(`is a loopback name (allowed only for hosts on ${allowSetting(policy)})`);
  }
  return u.href;
}

export interface SendResult {
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** The answer's body, when asked for (SendOptions.readBody). */
  body?: Buffer;
  /** What went wrong when it did not answer (connection error, timeout) or the policy refused it. */
  error?: string;
  /** The network policy refused the target: final, not retried. */
  refused?: boolean;
}

export interface SendOptions extends TargetPolicy {
  timeoutMs: number;
  /** POST unless given: GET (a schedule's data_url) sends no body; PUT (an S3 upload by presigned URL). */
  method?: "POST" | "GET" | "PUT";
  signal?: AbortSignal;
  /** Keep up to this many bytes of the answer's body (more fails the attempt); without it the body is dropped. */
  readBody?: number;
  contentType?: string;
  userAgent?: string;
  /** Name resolution, replaceable in tests: every address of the name. */
  lookup?: (hostname: string) => Promise<string[]>;
}

function defaultLookup(hostname: string): Promise<string[]> {
  return dnsLookup(hostname, { all: true, verbatim: true }).then((rs) => rs.map((r) => r.address));
}

/** The address to connect to, after checking every address the host resolves to. */
async function checkedAddress(u: URL, opts: SendOptions): Promise<string> {
  const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const allowListed = hostAllowed(u.hostname.toLowerCase(), opts.allowHosts);
  const addresses = isIpLiteral(host) ? [host] : await (opts.lookup ?? defaultLookup)(host.replace(/\.$/, ""));
  if (addresses.length === 0) throw new Error(`${host} has no addresses`);
  for (const a of addresses) {
    if (isLinkLocalOrMetadata(a)) throw new WebhookRefused(`${host} resolves to a link-local or metadata address (${a})`);
    if (!allowListed && !isPublicAddress(a))
      throw new WebhookRefused(
        `${host} resolves to a non-public address (${a}); allow-list the host with ${allowSetting(opts)} to reach it`,
      );
  }
  return addresses[0]!.replace(/%.*$/, "");
}

/**
 * The address to connect to for a host that is not reached over HTTP (an SFTP server): the host is
 * checked as a URL's would be, then every address it resolves to. Throws WebhookRefused when the policy
 * refuses it, an Error when it does not resolve. The caller connects to the returned address only.
 */
export async function checkedHostAddress(host: string, opts: Omit<SendOptions, "timeoutMs">): Promise<string> {
  const u = new URL(`https://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}/`);
  try {
    checkWebhookUrl(u.href, opts);
  } catch (e) {
    throw new WebhookRefused((e as Error).message);
  }
  return checkedAddress(u, opts as SendOptions);
}

/**
 * POSTs one webhook attempt. Never throws: the outcome is a status, an error or a refusal.
 * The whole attempt (lookup, connect, TLS, request, answer head) is bounded by timeoutMs.
 */
export function sendWebhook(url: string, headers: Record<string, string>, body: string, opts: SendOptions): Promise<SendResult> {
  return postChecked(url, headers, body, opts);
}

/**
 * POSTs (or PUTs) `body` to `url` under the outbound policy (webhooks, the TSA, S3 destinations; with
 * method GET and no body, a schedule's data_url): the URL and every address its host resolves to are
 * checked, the connection goes to the checked address, redirects are not followed. Never throws.
 */
export async function postChecked(
  url: string,
  headers: Record<string, string>,
  body: string | Uint8Array,
  opts: SendOptions,
): Promise<SendResult> {
  let u: URL;
  try {
    u = new URL(checkWebhookUrl(url, opts));
  } catch (e) {
    return { refused: true, error: (e as Error).message };
  }
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  const timedOut = () => `no answer within ${opts.timeoutMs} ms`;
  let address: string;
  try {
    address = await Promise.race([
      checkedAddress(u, opts),
      new Promise<never>((_, reject) =>
        signal.addEventListener("abort", () => reject(new Error(deadline.aborted ? timedOut() : "stopped")), { once: true }),
      ),
    ]);
  } catch (e) {
    if (e instanceof WebhookRefused) return { refused: true, error: e.message };
    return { error: `lookup failed: ${(e as Error).message}` };
  }
  const family = address.includes(":") ? 6 : 4;
  // Connect to the checked address; TLS still verifies the certificate against the URL's host name.
  const lookup: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all)
      (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else cb(null, address, family);
  };
  const client = u.protocol === "https:" ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    const req = client.request(
      {
        protocol: u.protocol,
        host: u.hostname.replace(/^\[|\]$/g, ""),
        port: u.port || undefined,
        path: u.pathname + u.search,
        method: opts.method ?? "POST",
        lookup,
        servername: isIpLiteral(u.hostname) ? undefined : u.hostname,
        headers: {
          ...headers,
          ...(opts.method === "GET"
            ? {}
            : {
                "content-type": opts.contentType ?? "application/json",
                "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength),
              }),
          "user-agent": opts.userAgent ?? "reportgen-webhooks",
        },
        agent: false,
      },
      (res) => {
        // A webhook's status is all that matters: read (and drop) a little of the body, then close.
        const keep = opts.readBody;
        const chunks: Buffer[] = [];
        let read = 0;
        res.on("data", (c: Buffer) => {
          read += c.length;
          if (keep !== undefined && read <= keep) chunks.push(c);
          if (read > (keep ?? 64 * 1024)) {
            if (keep !== undefined) done({ status: res.statusCode, error: `the answer is larger than ${keep} bytes` });
            res.destroy();
          }
        });
        const finished = () =>
          done(keep === undefined ? { status: res.statusCode } : { status: res.statusCode, body: Buffer.concat(chunks) });
        res.on("end", finished);
        res.on("close", () =>
          done(keep === undefined ? { status: res.statusCode } : { status: res.statusCode, error: "the answer was cut off" }),
        );
        res.on("error", () =>
          done(keep === undefined ? { status: res.statusCode } : { status: res.statusCode, error: "the answer was cut off" }),
        );
      },
    );
    const onAbort = () => {
      done({ error: deadline.aborted ? timedOut() : "stopped" });
      req.destroy();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (e) => done({ error: deadline.aborted ? timedOut() : `connection failed: ${e.message}` }));
    req.on("close", () => signal.removeEventListener("abort", onAbort));
    if (opts.method === "GET") req.end();
    else req.end(body);
  });
}
