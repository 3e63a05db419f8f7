// The contract test's access-control calls: key changes (PATCH, rotate) with each status, the audit
// trail and usage, and 403 forbidden on every authenticated /api/v1 operation for a key without its
// scope (tests/blackbox/contract.test.ts checks every answer against the served OpenAPI document).
import { expect } from "bun:test";
import type { ContractCall } from "./contract-libraries";

type Call = (c: ContractCall) => Promise<{ status: number; body: any }>;

const json = (v: unknown) => JSON.stringify(v);
const MISSING = "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e";

/** Scopes, rotation, quotas and the audit trail: each operation's statuses, and 403 on every authenticated operation. */
export async function accessControlCalls(
  call: Call,
  doc: Record<string, any>,
  keysOp: { method: string; template: string; url: string },
  deletedKeyId: string,
): Promise<void> {
  const made = await call({ ...keysOp, body: json({ name: "rotating", max_reports_per_day: 100 }) });
  expect(made.status).toBe(201);
  const id = made.body.id as string;

  const patch = { method: "PATCH", template: "/api/v1/access-keys/{accessKeyID}", url: `/api/v1/access-keys/${id}` };
  expect((await call({ ...patch, body: json({ max_reports_per_day: 5 }) })).status).toBe(200);
  expect((await call({ ...patch, body: json({ max_reports_per_day: 0 }) })).status).toBe(422);
  expect((await call({ ...patch, url: `/api/v1/access-keys/${deletedKeyId}`, body: json({ max_reports_per_day: 5 }) })).status).toBe(404);
  expect((await call({ ...patch, body: "{" })).status).toBe(400);
  expect((await call({ ...patch, body: "{}", headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect((await call({ ...patch, body: new Uint8Array(10 * 1024 * 1024 + 1).fill(0x20) })).status).toBe(413);
  expect((await call({ ...patch, key: null, body: json({ max_reports_per_day: 5 }) })).status).toBe(401);

  const rot = { method: "POST", template: "/api/v1/access-keys/{accessKeyID}/rotate", url: `/api/v1/access-keys/${id}/rotate` };
  expect((await call({ ...rot, body: json({ grace_seconds: 60 }) })).status).toBe(200);
  expect((await call({ ...rot, body: json({ grace_seconds: 604_801 }) })).status).toBe(422);
  expect((await call({ ...rot, url: `/api/v1/access-keys/${deletedKeyId}/rotate`, body: "{}" })).status).toBe(404);
  expect((await call({ ...rot, body: "{" })).status).toBe(400);
  expect((await call({ ...rot, body: "{}", headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect((await call({ ...rot, body: new Uint8Array(10 * 1024 * 1024 + 1).fill(0x20) })).status).toBe(413);
  expect((await call({ ...rot, key: null, body: "{}" })).status).toBe(401);

  const audit = { method: "GET", template: "/api/v1/audit-events", url: "/api/v1/audit-events?limit=5" };
  const events = await call(audit);
  expect(events.status).toBe(200);
  expect(events.body.data.length).toBeGreaterThan(0);
  expect((await call({ ...audit, url: "/api/v1/audit-events?cursor=nonsense" })).status).toBe(400);
  expect((await call({ ...audit, url: "/api/v1/audit-events?limit=0" })).status).toBe(422);
  expect((await call({ ...audit, key: null })).status).toBe(401);

  // A key with only templates:read: every /api/v1 operation but reading templates answers 403 forbidden.
  const narrow = await call({ ...keysOp, body: json({ name: "narrow", scopes: ["templates:read"] }) });
  expect(narrow.status).toBe(201);
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    if (!path.startsWith("/api/v1/")) continue;
    for (const method of Object.keys(ops)) {
      const m = method.toUpperCase();
      if (m === "GET" && path.startsWith("/api/v1/templates")) continue; // what templates:read allows
      // Any well-formed id: the scope is refused before the resource is looked up.
      const url = path
        .replace("{accessKeyID}", id)
        .replace("{version}", "1")
        .replace(/\{\w+\}/g, MISSING);
      const res = await call({
        method: m,
        template: path,
        url,
        key: narrow.body.data,
        body: m === "POST" || m === "PATCH" ? "{}" : undefined,
      });
      expect({ op: `${m} ${path}`, status: res.status }).toEqual({ op: `${m} ${path}`, status: 403 });
    }
  }
  // Reading templates without templates:read: 403 too.
  const reader = await call({ ...keysOp, body: json({ name: "reader", scopes: ["reports:read"] }) });
  expect(reader.status).toBe(201);
  const tid = "3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
  for (const [template, url] of [
    ["/api/v1/templates", "/api/v1/templates"],
    ["/api/v1/templates/{templateID}", `/api/v1/templates/${tid}`],
    ["/api/v1/templates/{templateID}/versions/{version}", `/api/v1/templates/${tid}/versions/1`],
    ["/api/v1/templates/{templateID}/samples", `/api/v1/templates/${tid}/samples`],
    ["/api/v1/templates/{templateID}/versions/{version}/compare", `/api/v1/templates/${tid}/versions/1/compare`],
    ["/api/v1/templates/{templateID}/pictures/{picture}", `/api/v1/templates/${tid}/pictures/${"0".repeat(64)}.png`],
  ] as const)
    expect((await call({ method: "GET", template, url, key: reader.body.data })).status).toBe(403);

  // Usage: per day, with a bad group_by refused.
  const usage = { method: "GET", template: "/api/v1/usage", url: "/api/v1/usage?group_by=key" };
  const used = await call(usage);
  expect(used.status).toBe(200);
  expect((await call({ ...usage, url: "/api/v1/usage?group_by=week" })).status).toBe(422);
  expect((await call({ ...usage, key: null })).status).toBe(401);
}
