// The outbound policy of destinations, with real sockets: every spelling of "this machine" and the
// metadata address (tests/security/vectors.ts's LOCAL_HOSTS, the renderer's and webhooks' list) is
// refused for an S3 endpoint and an SFTP host, at creation when the spelling shows it and at connect time
// otherwise: a name that resolves to loopback (DNS rebinding: it may have resolved elsewhere when the
// destination was made) is checked again at each connection, and the connection goes to the checked
// address. A canary listening dual-stack on every address records anything that gets through; an
// allow-listed 127.0.0.1 does reach it (the canary would see a leak), the metadata address never does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ship } from "../../src/modules/destinations/transports/ship";
import type { ShipContext } from "../../src/modules/destinations/transports/transport";
import { createTestApp, type TestApp } from "../helpers/app";
import { type Canary, startCanary } from "./canary";
import { LOCAL_HOSTS } from "./vectors";

let canary: Canary;
let t: TestApp;
beforeAll(async () => {
  canary = await startCanary();
  t = await createTestApp();
});
afterAll(async () => {
  await canary.close();
  await t.close();
});

const HOST_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHGaYvnUcoHwIXj4mmr1g8NmHMcRdpzV2qI7GI4mmNOU";
const bare = (h: string) => h.replace(/^\[|\]$/g, "");
const ctx = (allowHosts: string[] = []): ShipContext => ({
  allowHosts,
  timeoutMs: 3_000,
  // Every name resolves to loopback here: a rebinding resolver, whatever it answered before.
  lookup: async () => ["127.0.0.1"],
  smtp: { url: "", from: "", attachMax: 0 },
});
const object = { target: "x.pdf", bytes: new Uint8Array([37, 80, 68, 70]), contentType: "application/pdf" };
// https to the canary's raw port, which records every TCP connection; http (allowed only for allow-listed hosts) to its HTTP port.
const s3 = (host: string, scheme = "https") => ({
  id: "d",
  type: "s3" as const,
  settings: {
    endpoint: `${scheme}://${host}:${scheme === "https" ? canary.rawPort : canary.httpPort}`,
    region: "us-east-1",
    bucket: "bucket",
    prefix: `${canary.token}/`,
    access_key_id: "k",
  },
  secrets: { secret_access_key: "s" },
});
const sftp = (host: string) => ({
  id: "d",
  type: "sftp" as const,
  settings: { host: bare(host), port: canary.rawPort, user: "u", host_key: HOST_KEY, directory: "", auth: "password" },
  secrets: { password: "p" },
});

describe("destination hosts under the outbound policy", () => {
  test.each(LOCAL_HOSTS)("%s: refused at creation or at connect time, for S3 and SFTP, and nothing reaches the canary", async (host) => {
    canary.reset();
    const created = await t.request("POST", "/api/v1/destinations", {
      body: { name: "x", type: "s3", s3: { endpoint: `https://${host}`, bucket: "bucket", access_key_id: "k", secret_access_key: "s" } },
    });
    const sftpCreated = await t.request("POST", "/api/v1/destinations", {
      body: { name: "x", type: "sftp", sftp: { host: bare(host), user: "u", password: "p", host_key: HOST_KEY } },
    });
    for (const [r, target] of [
      [await ship(s3(host), object, ctx()), created],
      [await ship(sftp(host), object, ctx()), sftpCreated],
    ] as const) {
      expect(r).toMatchObject({ ok: false, final: true });
      expect((r as { error: string }).error).toMatch(/non-public|loopback|link-local|metadata/);
      // A name the literal check cannot judge (localtest.me, *.nip.io, this machine's address) is accepted at creation; the connection refuses it.
      expect([201, 422]).toContain(target.status);
    }
    expect(await canary.leaks()).toEqual([]);
  });

  test("an allow-listed 127.0.0.1 reaches the canary (the control); the metadata address is refused even allow-listed", async () => {
    canary.reset();
    await ship(s3("127.0.0.1", "http"), object, ctx(["127.0.0.1"]));
    expect(canary.hits.some((h) => h.detail.includes(canary.token))).toBe(true);
    canary.reset();
    const meta = await ship(s3("169.254.169.254"), object, { ...ctx(["169.254.169.254"]), lookup: async () => ["169.254.169.254"] });
    expect(meta).toMatchObject({ ok: false, final: true });
    expect(await canary.leaks()).toEqual([]);
  });

  test("a public name that resolves to a private address at connect time is refused and says so", async () => {
    const r = await ship(s3("bucket.example.com"), object, { ...ctx(), lookup: async () => ["93.184.215.14", "10.1.2.3"] });
    expect(r).toMatchObject({ ok: false, final: true });
    expect((r as { error: string }).error).toContain("non-public address (10.1.2.3)");
    const s = await ship(sftp("sftp.example.com"), object, ctx());
    expect((s as { error: string }).error).toContain("--destination-allow-hosts");
  });
});
