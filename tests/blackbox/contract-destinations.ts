// The contract test's calls for /destinations: each operation and each status it can reach on default
// settings (tests/blackbox/contract.test.ts checks every answer against the served OpenAPI document).
import { expect } from "bun:test";
import type { ContractCall } from "./contract-libraries";

type Call = (c: ContractCall) => Promise<{ status: number; body: any }>;

const json = (v: unknown) => JSON.stringify(v);
const MISSING = "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e";
const TOO_BIG = () => new Uint8Array(11 * 1024 * 1024).fill(0x20);

export async function destinationCalls(call: Call): Promise<void> {
  // A name that never resolves (RFC 2606 .invalid): the test answers 200 with ok false, at once.
  const s3 = { endpoint: "https://s3.reportgen.invalid", bucket: "acme-archive", access_key_id: "AKIA", secret_access_key: "secret" };
  const up = { method: "POST", template: "/api/v1/destinations", url: "/api/v1/destinations" };
  const made = await call({ ...up, body: json({ name: "archive", type: "s3", s3 }) });
  expect(made.status).toBe(201);
  expect((await call({ ...up, body: json({ name: "archive", type: "s3", s3: { ...s3, endpoint: "https://127.0.0.1" } }) })).status).toBe(
    422,
  );
  expect((await call({ ...up, body: "{" })).status).toBe(400);
  expect((await call({ ...up, body: "x", headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect((await call({ ...up, body: TOO_BIG() })).status).toBe(413);
  expect((await call({ ...up, key: null, body: "{}" })).status).toBe(401);
  const id = made.body.data.id as string;

  const list = { method: "GET", template: "/api/v1/destinations", url: "/api/v1/destinations" };
  expect((await call(list)).status).toBe(200);
  expect((await call({ ...list, key: null })).status).toBe(401);
  const one = { method: "GET", template: "/api/v1/destinations/{destinationID}", url: `/api/v1/destinations/${id}` };
  expect((await call(one)).status).toBe(200);
  expect((await call({ ...one, url: `/api/v1/destinations/${MISSING}` })).status).toBe(404);
  expect((await call({ ...one, key: null })).status).toBe(401);

  const patch = { method: "PATCH", template: "/api/v1/destinations/{destinationID}", url: `/api/v1/destinations/${id}` };
  expect((await call({ ...patch, body: json({ name: "archive-2" }) })).status).toBe(200);
  expect((await call({ ...patch, body: json({ email: { to: ["a@b.example"] } }) })).status).toBe(422);
  expect((await call({ ...patch, url: `/api/v1/destinations/${MISSING}`, body: json({ name: "x" }) })).status).toBe(404);
  expect((await call({ ...patch, body: "{" })).status).toBe(400);
  expect((await call({ ...patch, body: "x", headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect((await call({ ...patch, body: TOO_BIG() })).status).toBe(413);
  expect((await call({ ...patch, key: null, body: "{}" })).status).toBe(401);

  const test = { method: "POST", template: "/api/v1/destinations/{destinationID}/test", url: `/api/v1/destinations/${id}/test` };
  const tested = await call({ ...test, body: "{}" });
  expect(tested.status).toBe(200);
  expect(tested.body.data.ok).toBe(false);
  expect((await call({ ...test, url: `/api/v1/destinations/${MISSING}/test`, body: "{}" })).status).toBe(404);
  expect((await call({ ...test, key: null, body: "{}" })).status).toBe(401);

  const del = { method: "DELETE", template: "/api/v1/destinations/{destinationID}", url: `/api/v1/destinations/${id}` };
  expect((await call({ ...del, key: null })).status).toBe(401);
  expect((await call(del)).status).toBe(200);
  expect((await call(del)).status).toBe(404);
}
