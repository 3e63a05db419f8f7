// A real HTTP receiver for webhook tests, on loopback, and an independent implementation of the
// Standard Webhooks verification algorithm as published (standardwebhooks.com): it shares no code
// with src/modules/webhooks, so a signing bug cannot hide behind a matching verification bug.
import { createHmac, timingSafeEqual } from "node:crypto";

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `n` requests have arrived (or rejects after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  stop(): void;
}

/** `respond` decides each answer (n counts from 1); the default answers 204. */
export function startReceiver(
  respond: (r: Received, n: number) => Response | Promise<Response> = () => new Response(null, { status: 204 }),
): Receiver {
  const received: Received[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const r: Received = { headers: Object.fromEntries(req.headers), body: await req.text(), at: Date.now() };
      received.push(r);
      return respond(r, received.length);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    port: server.port!,
    received,
    async waitFor(n, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`receiver got ${received.length} of ${n} requests in ${timeoutMs} ms`);
        await Bun.sleep(20);
      }
      return received;
    },
    stop: () => server.stop(true),
  };
}

/**
 * Verifies a delivery as the Standard Webhooks specification describes: secret "whsec_" + base64
 * (the HMAC key is the decoded part), signed content "<webhook-id>.<webhook-timestamp>.<body>",
 * HMAC-SHA256, base64, compared in constant time with each space-separated "v1,<sig>" entry; the
 * timestamp must be within `toleranceSeconds` of now. Returns the parsed payload or throws.
 */
export function verifyStandardWebhook(secret: string, headers: Record<string, string>, body: string, toleranceSeconds = 300): any {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) throw new Error("missing webhook-id, webhook-timestamp or webhook-signature");
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds)
    throw new Error(`timestamp ${timestamp} outside the tolerance`);
  if (!secret.startsWith("whsec_")) throw new Error("secret must start with whsec_");
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  const ok = signatures.split(" ").some((entry) => {
    const [version, sig] = entry.split(",", 2);
    if (version !== "v1" || !sig) return false;
    const given = Buffer.from(sig, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) throw new Error("no matching signature");
  return JSON.parse(body);
}
