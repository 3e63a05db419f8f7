// The contract test's calls for the account's libraries: assets and signing identities, each operation
// and each status it can reach on default settings (tests/blackbox/contract.test.ts checks every answer
// against the served OpenAPI document and that nothing documented was left out).
import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePki, P12_PASSWORD } from "../helpers/signing";

export interface ContractCall {
  method: string;
  /** The path as documented, e.g. /api/v1/reports/{reportID}. */
  template: string;
  url: string;
  key?: string | null;
  body?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}
type Call = (c: ContractCall) => Promise<{ status: number; body: any }>;

const json = (v: unknown) => JSON.stringify(v);
const MISSING = "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e";
/** Over the default body limit (10 MB): refused from its declared length. */
const TOO_BIG = () => new Uint8Array(11 * 1024 * 1024).fill(0x20);
/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const UNSAFE_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

/** Every status of the five /assets operations: 201 then 200 (a replacement), and each refusal. */
export async function assetCalls(call: Call): Promise<void> {
  const up = { method: "POST", template: "/api/v1/assets", url: "/api/v1/assets" };
  const made = await call({ ...up, body: json({ name: "logo.png", content_base64: PNG }) });
  expect(made.status).toBe(201);
  expect((await call({ ...up, body: json({ name: "logo.png", content_base64: PNG }) })).status).toBe(200);
  expect((await call({ ...up, body: json({ name: "logo.png", content_base64: Buffer.from(UNSAFE_SVG).toString("base64") }) })).status).toBe(
    422,
  );
  expect((await call({ ...up, body: "{" })).status).toBe(400);
  expect((await call({ ...up, body: "x", headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect((await call({ ...up, body: TOO_BIG() })).status).toBe(413);
  expect((await call({ ...up, key: null, body: "{}" })).status).toBe(401);
  const id = made.body.data.id as string;

  const list = { method: "GET", template: "/api/v1/assets", url: "/api/v1/assets?limit=1" };
  expect((await call(list)).status).toBe(200);
  expect((await call({ ...list, url: "/api/v1/assets?cursor=nonsense" })).status).toBe(400);
  expect((await call({ ...list, url: "/api/v1/assets?limit=0" })).status).toBe(422);
  expect((await call({ ...list, key: null })).status).toBe(401);
  for (const [template, url] of [
    ["/api/v1/assets/{assetID}", `/api/v1/assets/${id}`],
    ["/api/v1/assets/{assetID}/content", `/api/v1/assets/${id}/content`],
  ] as const) {
    const one = { method: "GET", template, url };
    expect((await call(one)).status).toBe(200);
    expect((await call({ ...one, url: url.replace(id, MISSING) })).status).toBe(404);
    expect((await call({ ...one, key: null })).status).toBe(401);
  }
  const del = { method: "DELETE", template: "/api/v1/assets/{assetID}", url: `/api/v1/assets/${id}` };
  expect((await call({ ...del, key: null })).status).toBe(401);
  expect((await call(del)).status).toBe(200);
  expect((await call(del)).status).toBe(404);
}

/** Every status of the four /signing-identities operations, with a PKCS#12 made by openssl. */
export async function signingCalls(call: Call): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "rg-contract-pki-"));
  try {
    const pki = makePki(dir);
    const up = { method: "POST", template: "/api/v1/signing-identities", url: "/api/v1/signing-identities" };
    const made = await call({ ...up, body: json({ name: "Invoices", p12_base64: pki.selfSigned, password: P12_PASSWORD }) });
    expect(made.status).toBe(201);
    expect((await call({ ...up, body: json({ name: "Invoices", p12_base64: pki.selfSigned, password: "wrong" }) })).status).toBe(422);
    expect((await call({ ...up, body: "{" })).status).toBe(400);
    expect((await call({ ...up, body: "x", headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await call({ ...up, body: TOO_BIG() })).status).toBe(413);
    expect((await call({ ...up, key: null, body: "{}" })).status).toBe(401);
    const id = made.body.identity_id as string;

    const list = { method: "GET", template: "/api/v1/signing-identities", url: "/api/v1/signing-identities" };
    expect((await call(list)).status).toBe(200);
    expect((await call({ ...list, key: null })).status).toBe(401);
    const one = { method: "GET", template: "/api/v1/signing-identities/{identityID}", url: `/api/v1/signing-identities/${id}` };
    expect((await call(one)).status).toBe(200);
    expect((await call({ ...one, url: `/api/v1/signing-identities/${MISSING}` })).status).toBe(404);
    expect((await call({ ...one, key: null })).status).toBe(401);
    const del = { ...one, method: "DELETE" };
    expect((await call({ ...del, key: null })).status).toBe(401);
    expect((await call(del)).status).toBe(200);
    expect((await call(del)).status).toBe(404);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
