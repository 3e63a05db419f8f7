// Destinations over the API: create, list, read, change and delete an account's S3, SFTP and e-mail
// destinations; secrets never come back (nor appear in the database or the audit trail in clear);
// another account's destination is 404; every change is audited; options.deliver names only the
// account's destinations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintKey } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const s3Body = (over: Record<string, unknown> = {}) => ({
  name: "archive",
  type: "s3",
  s3: {
    endpoint: "https://s3.example.com",
    region: "eu-central-1",
    bucket: "acme-archive",
    prefix: "reports/",
    access_key_id: "AKIAEXAMPLE",
    secret_access_key: SECRET,
    ...over,
  },
});

/** A real ed25519 key pair from ssh-keygen: the private key and the public key line. */
function sshKeyPair(): { privateKey: string; publicKey: string } {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-sshkey-"));
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "k")]);
  return { privateKey: readFileSync(join(dir, "k"), "utf8"), publicKey: readFileSync(join(dir, "k.pub"), "utf8").trim() };
}

async function create(body: unknown, key?: string) {
  const res = await t.request("POST", "/api/v1/destinations", { body, key });
  return { res, json: (await res.json()) as { data: Record<string, any>; error?: string; details?: { field: string }[] } };
}

async function auditTypes(target: string) {
  const res = await t.request("GET", "/api/v1/audit-events?limit=100");
  const events = ((await res.json()) as { data: { type: string; target: string; detail: unknown }[] }).data;
  return events.filter((e) => e.target === target);
}

describe("destinations", () => {
  test("an s3 destination is created (201, Location), listed and read without its secret, which is sealed in the database", async () => {
    const { res, json } = await create(s3Body());
    expect(res.status).toBe(201);
    const d = json.data;
    expect(res.headers.get("location")).toBe(`/api/v1/destinations/${d.id}`);
    expect(d).toMatchObject({
      name: "archive",
      type: "s3",
      s3: {
        endpoint: "https://s3.example.com",
        region: "eu-central-1",
        bucket: "acme-archive",
        prefix: "reports/",
        access_key_id: "AKIAEXAMPLE",
      },
    });
    expect(JSON.stringify(d)).not.toContain(SECRET);
    const one = await t.request("GET", `/api/v1/destinations/${d.id}`);
    expect(one.status).toBe(200);
    expect(await one.text()).not.toContain(SECRET);
    const list = (await (await t.request("GET", "/api/v1/destinations")).json()) as { data: { id: string }[] };
    expect(list.data.map((x) => x.id)).toContain(d.id);
    // At rest: only the seal.
    const row = t.app.services.backend.db!.$client.query("SELECT settings, sealed_secrets FROM destinations WHERE id = ?").get(d.id) as {
      settings: string;
      sealed_secrets: string;
    };
    expect(row.settings + row.sealed_secrets).not.toContain(SECRET);
    expect(row.sealed_secrets).toStartWith("s1.");
    const audited = await auditTypes(d.id);
    expect(audited.map((e) => e.type)).toEqual(["destination.created"]);
    expect(JSON.stringify(audited)).not.toContain(SECRET);
  });

  test("sftp and email destinations: the host key is pinned as given, the auth named, never the key", async () => {
    const pair = sshKeyPair();
    const sftp = await create({
      name: "bank",
      type: "sftp",
      sftp: {
        host: "sftp.bank.example",
        user: "acme",
        private_key: pair.privateKey,
        host_key: `${pair.publicKey}`,
        directory: "/incoming",
      },
    });
    expect(sftp.res.status).toBe(201);
    expect(sftp.json.data.sftp).toEqual({
      host: "sftp.bank.example",
      port: 22,
      user: "acme",
      host_key: pair.publicKey.split(" ").slice(0, 2).join(" "),
      directory: "/incoming",
      auth: "private_key",
    });
    expect(JSON.stringify(sftp.json)).not.toContain("PRIVATE KEY");
    const email = await create({ name: "buyers", type: "email", email: { to: ["AP@Buyer.example"] } });
    expect(email.res.status).toBe(201);
    expect(email.json.data.email).toEqual({ to: ["ap@buyer.example"] });
  });

  test("422 for a body that does not fit its type, a bad host key, or an endpoint the outbound policy refuses", async () => {
    const cases: [unknown, string][] = [
      [{ name: "x", type: "s3" }, "s3"],
      [{ ...s3Body(), email: { to: ["a@b.example"] } }, "email"],
      [
        { name: "x", type: "sftp", sftp: { host: "h.example", user: "u", password: "p", host_key: "ssh-ed25519 notakey" } },
        "sftp.host_key",
      ],
      [{ name: "x", type: "sftp", sftp: { host: "h.example", user: "u", host_key: sshKeyPair().publicKey } }, "sftp.private_key"],
      [s3Body({ endpoint: "https://127.0.0.1:9000" }), "s3.endpoint"],
      [s3Body({ endpoint: "http://s3.example.com" }), "s3.endpoint"],
      [s3Body({ endpoint: "https://169.254.169.254" }), "s3.endpoint"],
      [s3Body({ endpoint: "https://metadata.google.internal" }), "s3.endpoint"],
      [{ name: "x", type: "sftp", sftp: { host: "10.1.2.3", user: "u", password: "p", host_key: sshKeyPair().publicKey } }, "sftp.host"],
      [{ name: "x", type: "sftp", sftp: { host: "localhost", user: "u", password: "p", host_key: sshKeyPair().publicKey } }, "sftp.host"],
    ];
    for (const [body, field] of cases) {
      const { res, json } = await create(body);
      expect({ field, status: res.status, error: json.error }).toEqual({ field, status: 422, error: "validation_failed" });
      expect(json.details?.map((d) => d.field)).toEqual([field]);
    }
  });

  test("PATCH changes the fields given, keeps a secret left out, and is audited with the field names only", async () => {
    const { json } = await create(s3Body());
    const id = json.data.id;
    const res = await t.request("PATCH", `/api/v1/destinations/${id}`, { body: { name: "archive-2", s3: { bucket: "acme-other" } } });
    expect(res.status).toBe(200);
    const d = ((await res.json()) as { data: Record<string, any> }).data;
    expect(d.name).toBe("archive-2");
    expect(d.s3).toMatchObject({ bucket: "acme-other", prefix: "reports/", access_key_id: "AKIAEXAMPLE" });
    const opened = await t.app.services.destinations.opened(id, (await t.app.services.keys.list())[0]!.accountId);
    expect(opened?.secrets).toEqual({ secret_access_key: SECRET });
    await t.request("PATCH", `/api/v1/destinations/${id}`, { body: { s3: { secret_access_key: "new-secret" } } });
    expect((await t.app.services.destinations.opened(id, opened!.accountId))?.secrets).toEqual({ secret_access_key: "new-secret" });
    const updates = (await auditTypes(id)).filter((e) => e.type === "destination.updated");
    expect(updates.map((e) => (e.detail as { changed: string[] }).changed)).toEqual([["s3.secret_access_key"], ["name", "s3.bucket"]]);
    expect(JSON.stringify(updates)).not.toContain("new-secret");
    const wrongType = await t.request("PATCH", `/api/v1/destinations/${id}`, { body: { email: { to: ["a@b.example"] } } });
    expect(wrongType.status).toBe(422);
  });

  test("another account's destination is 404 for every route; DELETE removes it and is audited", async () => {
    const { json } = await create(s3Body());
    const id = json.data.id;
    const other = (await mintKey(t, { account: "globex" })).value;
    for (const [method, path, body] of [
      ["GET", `/api/v1/destinations/${id}`],
      ["PATCH", `/api/v1/destinations/${id}`, { name: "mine" }],
      ["DELETE", `/api/v1/destinations/${id}`],
      ["POST", `/api/v1/destinations/${id}/test`, {}],
    ] as const) {
      const res = await t.request(method, path, { key: other, body });
      expect({ method, status: res.status }).toEqual({ method, status: 404 });
    }
    expect(((await (await t.request("GET", "/api/v1/destinations", { key: other })).json()) as { data: unknown[] }).data).toEqual([]);
    expect((await t.request("DELETE", `/api/v1/destinations/${id}`)).status).toBe(200);
    expect((await t.request("GET", `/api/v1/destinations/${id}`)).status).toBe(404);
    expect((await auditTypes(id)).map((e) => e.type)).toEqual(["destination.deleted", "destination.created"]);
  });

  test("a key without destinations:manage is refused (403)", async () => {
    const key = (await mintKey(t, { scopes: ["reports:read", "reports:write"] })).value;
    expect((await t.request("GET", "/api/v1/destinations", { key })).status).toBe(403);
    expect((await create(s3Body(), key)).res.status).toBe(403);
  });

  test("options.deliver names only the account's destinations; a path that would leave the prefix is refused", async () => {
    const { json } = await create(s3Body());
    const other = (await mintKey(t, { account: "globex" })).value;
    const body = (deliver: unknown) => ({ engine: "raw", html_template: "<p>x</p>", options: { deliver } });
    const foreign = await t.request("POST", "/api/v1/generate-pdf-async", { key: other, body: body([{ destination_id: json.data.id }]) });
    expect(foreign.status).toBe(422);
    expect(((await foreign.json()) as { details: { field: string }[] }).details[0]!.field).toBe("options.deliver[0].destination_id");
    for (const path of ["../x.pdf", "/abs.pdf", "a//b.pdf", "dir/"]) {
      const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: body([{ destination_id: json.data.id, path }]) });
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
    }
    const ok = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: body([{ destination_id: json.data.id, path: "invoices/{yyyy}/{mm}/{report_id}.pdf" }]),
    });
    expect(ok.status).toBe(202);
    const { report_id } = (await ok.json()) as { report_id: string };
    const r = (await (await t.request("GET", `/api/v1/reports/${report_id}`)).json()) as { data: Record<string, any> };
    const now = new Date();
    expect(r.data.deliveries).toEqual([
      {
        destination_id: json.data.id,
        status: "pending",
        attempts: 0,
        target: `invoices/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}/${report_id}.pdf`,
        delivered_at: null,
        error: null,
      },
    ]);
  });
});
