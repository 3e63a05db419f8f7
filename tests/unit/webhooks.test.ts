// Pure parts of webhooks: Standard Webhooks signing against the specification's published vector,
// the retry schedule, and the network policy on submitted URLs (every spelling of a private address).
// sendWebhook is exercised against a real loopback receiver with a stand-in resolver.
import { afterAll, describe, expect, test } from "bun:test";
import { AppError } from "../../src/lib/errors";
import { MAX_RETRY_DELAY_MS, outcomeOf, retryDelay } from "../../src/modules/webhooks/sender";
import { newWebhookSecret, signatureFor, webhookHeaders } from "../../src/modules/webhooks/signature";
import { checkWebhookUrl, sendWebhook } from "../../src/modules/webhooks/target";
import { startReceiver, verifyStandardWebhook } from "../helpers/webhook-receiver";

describe("signature", () => {
  test("reproduces the Standard Webhooks specification's published test vector", () => {
    expect(signatureFor("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}')).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    );
  });

  test("new secrets are whsec_ + base64 of 32 random bytes, each different", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64").length).toBe(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  test("headers verify with the published algorithm; during a rotation both secrets verify", () => {
    const [oldS, newS] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"type":"report.succeeded"}';
    const h = webhookHeaders([newS, oldS], "msg_1", Math.floor(Date.now() / 1000), body);
    expect(h["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(verifyStandardWebhook(newS, h, body)).toEqual({ type: "report.succeeded" });
    expect(verifyStandardWebhook(oldS, h, body)).toEqual({ type: "report.succeeded" });
    expect(() => verifyStandardWebhook(newWebhookSecret(), h, body)).toThrow("no matching signature");
    expect(() => verifyStandardWebhook(newS, h, `${body} `)).toThrow("no matching signature");
  });
});

describe("retry schedule", () => {
  test("doubles from the base, with jitter in the upper half, capped at one hour", () => {
    for (let n = 1; n <= 12; n++) {
      const ceiling = Math.min(MAX_RETRY_DELAY_MS, 5_000 * 2 ** (n - 1));
      expect(retryDelay(n, 5_000, () => 0)).toBe(ceiling / 2);
      expect(retryDelay(n, 5_000, () => 1)).toBe(ceiling);
    }
    expect(retryDelay(100, 5_000, () => 1)).toBe(MAX_RETRY_DELAY_MS);
    const samples = new Set(Array.from({ length: 50 }, () => retryDelay(3, 5_000)));
    expect(samples.size).toBeGreaterThan(10); // jitter: not the same instant for every delivery
  });

  const opts = { retryWindowMs: 86_400_000, retryBaseMs: 5_000 };
  test.each([
    ["2xx delivers", { status: 204 }, "delivered"],
    ["500 is retried", { status: 500 }, "pending"],
    ["a redirect is not followed, and retried", { status: 302 }, "pending"],
    ["410 is retried too (only 2xx counts)", { status: 410 }, "pending"],
    ["a timeout is retried", { error: "no answer within 10000 ms" }, "pending"],
    ["a connection error is retried", { error: "connection failed: ECONNREFUSED" }, "pending"],
    ["a policy refusal is final", { refused: true, error: "non-public" }, "failed"],
  ] as const)("%s", (_name, result, expected) => {
    expect(outcomeOf(result, 1, 0, 1_000, opts).status).toBe(expected);
  });

  test("retries stop when the next attempt would fall outside the window", () => {
    const created = 0;
    expect(outcomeOf({ status: 500 }, 30, created, 86_400_000 - 3_600_000 - 1, opts, () => 1)).toEqual({
      status: "pending",
      nextAttemptAt: 86_400_000 - 1,
    });
    expect(outcomeOf({ status: 500 }, 30, created, 86_400_000 - 3_600_000 + 1, opts, () => 1)).toEqual({ status: "failed" });
  });

  test("the default schedule spans 24 h in 33 to 57 attempts (the figures of docs/webhooks.md)", () => {
    const attempts = (jitter: number) => {
      let t = 0;
      for (let n = 1; ; n++) {
        const o = outcomeOf({ status: 500 }, n, 0, t, opts, () => jitter);
        if (o.status !== "pending") return n;
        t = o.nextAttemptAt;
      }
    };
    expect([attempts(1), attempts(0.5), attempts(0)]).toEqual([33, 41, 57]);
  });
});

describe("URL policy at submission", () => {
  const refused = (url: string, allowHosts: string[] = []) => {
    try {
      checkWebhookUrl(url, { allowHosts });
      return false;
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe("validation_failed");
      return true;
    }
  };

  test.each([
    "https://127.0.0.1/hook",
    "https://127.1/hook",
    "https://0x7f.0.0.1/hook",
    "https://0177.0.0.1/hook",
    "https://2130706433/hook",
    "https://0x7f000001/hook",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[::ffff:7f00:1]/hook",
    "https://[0:0:0:0:0:ffff:127.0.0.1]/hook",
    "https://0.0.0.0/hook",
    "https://[::]/hook",
    "https://10.0.0.5/hook",
    "https://172.16.0.1/hook",
    "https://192.168.1.1/hook",
    "https://100.64.0.1/hook",
    "https://[fc00::1]/hook",
    "https://[fd12:3456::1]/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[fe80::1]/hook",
    "https://[fd00:ec2::254]/hook",
    "https://[64:ff9b::7f00:1]/hook",
    "https://[2002:7f00:1::]/hook",
    "https://localhost/hook",
    "https://LOCALHOST./hook",
    "https://api.localhost/hook",
    "https://metadata.google.internal/computeMetadata/v1/",
    "http://hooks.example.com/plain-http",
    "https://user:pass@hooks.example.com/",
    "ftp://hooks.example.com/",
    "file:///etc/passwd",
    "not a url",
  ])("refuses %s", (url) => {
    expect(refused(url)).toBe(true);
  });

  test("accepts public https URLs and normalises them", () => {
    expect(checkWebhookUrl("https://Hooks.Example.com/a?b=1#frag", { allowHosts: [] })).toBe("https://hooks.example.com/a?b=1");
    expect(checkWebhookUrl("https://93.184.215.14/x", { allowHosts: [] })).toBe("https://93.184.215.14/x");
  });

  test("an allow-listed host may be loopback, private or plain http; metadata stays refused", () => {
    expect(refused("http://127.0.0.1:8080/hook", ["127.0.0.1"])).toBe(false);
    expect(refused("http://0x7f.1:8080/hook", ["127.0.0.1"])).toBe(false); // the same address, spelled otherwise
    expect(refused("http://hooks.internal/hook", ["*.internal"])).toBe(false);
    expect(refused("http://10.0.0.5/hook", ["127.0.0.1"])).toBe(true);
    expect(refused("http://169.254.169.254/", ["169.254.169.254"])).toBe(true);
    expect(refused("http://[fe80::1]/", ["[fe80::1]"])).toBe(true);
  });
});

describe("sendWebhook (real loopback receiver, stand-in resolver)", () => {
  const receiver = startReceiver((r) => new Response(null, { status: r.headers.host?.startsWith("hooks.example.test") ? 200 : 400 }));
  afterAll(() => receiver.stop());
  const url = `http://hooks.example.test:${receiver.port}/hook`;
  const toLoopback = async () => ["127.0.0.1"];

  test("a name that resolves to loopback is refused unless allow-listed; nothing is sent", async () => {
    const r = await sendWebhook(url.replace("http:", "https:"), {}, "{}", { allowHosts: [], timeoutMs: 2_000, lookup: toLoopback });
    expect(r.refused).toBe(true);
    expect(r.error).toContain("non-public address (127.0.0.1)");
    expect(receiver.received).toHaveLength(0);
  });

  test("a name with one private address among public ones is refused", async () => {
    const r = await sendWebhook("https://hooks.example.test/hook", {}, "{}", {
      allowHosts: [],
      timeoutMs: 2_000,
      lookup: async () => ["93.184.215.14", "10.1.2.3"],
    });
    expect(r).toMatchObject({ refused: true });
  });

  test("allow-listed: connects to the checked address and keeps the Host header", async () => {
    const r = await sendWebhook(url, { "webhook-id": "msg_x" }, '{"a":1}', {
      allowHosts: ["hooks.example.test"],
      timeoutMs: 5_000,
      lookup: toLoopback,
    });
    expect(r).toEqual({ status: 200 });
    expect(receiver.received.at(-1)!.headers["webhook-id"]).toBe("msg_x");
    expect(receiver.received.at(-1)!.body).toBe('{"a":1}');
  });

  test("a redirect is reported, not followed", async () => {
    const redirecting = startReceiver(() => new Response(null, { status: 307, headers: { location: "http://127.0.0.1:1/elsewhere" } }));
    try {
      const r = await sendWebhook(redirecting.url, {}, "{}", { allowHosts: ["127.0.0.1"], timeoutMs: 5_000 });
      expect(r).toEqual({ status: 307 });
      expect(redirecting.received).toHaveLength(1);
    } finally {
      redirecting.stop();
    }
  });

  test("a receiver that does not answer in time is a timeout; a closed port is a connection error", async () => {
    const silent = startReceiver(() => new Promise<Response>(() => {}));
    try {
      const t0 = performance.now();
      const r = await sendWebhook(silent.url, {}, "{}", { allowHosts: ["127.0.0.1"], timeoutMs: 300 });
      expect(r.error).toBe("no answer within 300 ms");
      expect(performance.now() - t0).toBeLessThan(5_000);
    } finally {
      silent.stop();
    }
    const closed = await sendWebhook("http://127.0.0.1:1/hook", {}, "{}", { allowHosts: ["127.0.0.1"], timeoutMs: 5_000 });
    expect(closed.error).toStartWith("connection failed:");
  });
});
