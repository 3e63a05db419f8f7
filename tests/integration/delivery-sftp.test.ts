// Delivery to an SFTP server: Debian's sshd on a loopback port, started by the test. The delivered file
// is read back and its sha256 compared with the report's PDF; a server showing another host key than the
// pinned one is refused before any credential is sent; a wrong key and a server that is down are retried
// and reported. Password sign-in: a local user made by the test (useradd + chpasswd, as root), its
// password accepted and a wrong one refused.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { generate, type TestApp, useRenderApp } from "../helpers/app";
import { createDestination, sha256, waitForDeliveries } from "../helpers/delivery";
import { testIf } from "../helpers/shared";
import { type LocalUser, localUser, localUserMissing, type SftpServer, SSHD, sshKey, startSftp } from "../support/sshd";

setDefaultTimeout(60_000);
const haveSshd = existsSync(SSHD);
const userMissing = haveSshd ? localUserMissing() : "Debian's sshd (openssh-server) is not installed";
let server: SftpServer;
let local: LocalUser | undefined;
beforeAll(async () => {
  if (haveSshd) server = await startSftp({ passwords: true });
  if (!userMissing) local = localUser();
}, 30_000);
afterAll(async () => {
  await server?.stop();
  local?.remove();
});
let t: TestApp;
useRenderApp((a) => (t = a), {
  destinationAllowHosts: ["127.0.0.1"],
  deliveryRetryBase: 200,
  deliveryRetryWindow: 8_000,
  deliveryTimeout: 5_000,
});

const destination = (over: Record<string, unknown> = {}) =>
  createDestination(t, {
    name: "bank",
    type: "sftp",
    sftp: {
      host: "127.0.0.1",
      port: server.port,
      user: server.user,
      private_key: server.clientKey.privateKey,
      host_key: server.hostKey,
      directory: join(server.root, "incoming"),
      ...over,
    },
  });

describe.skipIf(!haveSshd)("delivery to an SFTP server (Debian's sshd)", () => {
  test("the PDF is written under its path in the directory, byte for byte, folders made as needed", async () => {
    const dest = await destination();
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<h1>Reconciliation</h1>",
      options: { deliver: [{ destination_id: dest, path: "{yyyy}/{mm}/{report_id}.pdf" }] },
    });
    const [d] = await waitForDeliveries(t, report.report_id);
    expect(d).toMatchObject({ status: "delivered", attempts: 1, error: null });
    const file = join(server.root, "incoming", d!.target);
    expect(sha256(new Uint8Array(readFileSync(file)))).toBe(sha256(pdf!));
    // Written under a temporary name and renamed: none is left behind.
    expect(
      existsSync(
        join(
          server.root,
          "incoming",
          d!.target.replace(/[^/]+$/, (n) => `.${n}.part`),
        ),
      ),
    ).toBe(false);
  });

  test("a server showing another host key than the pinned one is refused, and the test says so", async () => {
    const dest = await destination({ host_key: sshKey().publicKey });
    const res = (await (await t.request("POST", `/api/v1/destinations/${dest}/test`, { body: {} })).json()) as { data: any };
    expect(res.data.ok).toBe(false);
    expect(res.data.error).toContain("the server's host key is not the pinned one");
    const { report } = await generate(t, { engine: "raw", html_template: "<p>x</p>", options: { deliver: [{ destination_id: dest }] } });
    const [d] = await waitForDeliveries(t, report.report_id, undefined, 20_000);
    expect(d!.status).toBe("failed");
    expect(d!.error).toContain("host key is not the pinned one");
    expect(existsSync(join(server.root, "incoming", `${report.report_id}.pdf`))).toBe(false);
  });

  test("a key the server does not accept: the credentials are refused, retried, then failed", async () => {
    const dest = await destination({ private_key: sshKey().privateKey });
    const { report } = await generate(t, { engine: "raw", html_template: "<p>x</p>", options: { deliver: [{ destination_id: dest }] } });
    const [d] = await waitForDeliveries(t, report.report_id, undefined, 20_000);
    expect(d).toMatchObject({ status: "failed", error: "the server refused the credentials (user, key or password)" });
    expect(d!.attempts).toBeGreaterThanOrEqual(2);
  });

  test("a server that is down: connection refused, and the test answers ok false", async () => {
    const dest = await destination({ port: 1 });
    const res = (await (await t.request("POST", `/api/v1/destinations/${dest}/test`, { body: {} })).json()) as { data: any };
    expect(res.data).toMatchObject({ ok: false, target: "reportgen-test.txt" });
    expect(res.data.error).toContain("ECONNREFUSED");
  });

  test("the test object arrives", async () => {
    const dest = await destination();
    const res = (await (await t.request("POST", `/api/v1/destinations/${dest}/test`, { body: {} })).json()) as { data: any };
    expect(res.data).toMatchObject({ ok: true });
    expect(readFileSync(join(server.root, "incoming", "reportgen-test.txt"), "utf8")).toContain("reportgen delivery test");
  });
});

describe("SFTP password sign-in (a local user the test makes)", () => {
  // The same server; no key, the user's password (undefined is left out of the JSON body).
  const withPassword = (password: string) =>
    destination({ user: local!.user, private_key: undefined, password, directory: join(local!.root, "incoming") });

  testIf(userMissing)("the user's password signs in: the PDF arrives byte for byte, written as that user", async () => {
    const dest = await withPassword(local!.password);
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<h1>Reconciliation</h1>",
      options: { deliver: [{ destination_id: dest, path: "{yyyy}/{report_id}.pdf" }] },
    });
    const [d] = await waitForDeliveries(t, report.report_id);
    expect(d).toMatchObject({ status: "delivered", attempts: 1, error: null });
    const file = join(local!.root, "incoming", d!.target);
    expect(sha256(new Uint8Array(readFileSync(file)))).toBe(sha256(pdf!));
    // Signed in as the user, not as whoever runs the tests: the file is the user's.
    expect(statSync(file).uid).toBe(statSync(local!.root).uid);
    expect(statSync(file).uid).not.toBe(process.getuid?.());
  });

  testIf(userMissing)("a wrong password is refused with a clear error, retried, then failed; nothing is written", async () => {
    const dest = await withPassword(`${local!.password}-wrong`);
    const res = (await (await t.request("POST", `/api/v1/destinations/${dest}/test`, { body: {} })).json()) as { data: any };
    expect(res.data).toMatchObject({ ok: false, error: "the server refused the credentials (user, key or password)" });
    const { report } = await generate(t, { engine: "raw", html_template: "<p>x</p>", options: { deliver: [{ destination_id: dest }] } });
    const [d] = await waitForDeliveries(t, report.report_id, undefined, 20_000);
    expect(d).toMatchObject({ status: "failed", error: "the server refused the credentials (user, key or password)" });
    expect(d!.attempts).toBeGreaterThanOrEqual(2);
    expect(existsSync(join(local!.root, "incoming", `${report.report_id}.pdf`))).toBe(false);
  });
});
