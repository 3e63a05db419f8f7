// The contract test's calls for golden samples: a template's samples, comparing and approving versions,
// the comparisons' pictures and PATCH /templates/{id}, each operation and each status it can reach on
// default settings (tests/blackbox/contract.test.ts checks every answer against the served OpenAPI
// document and that nothing documented was left out).
import { expect } from "bun:test";
import type { ContractCall } from "./contract-libraries";

type Call = (c: ContractCall) => Promise<{ status: number; body: any; headers: Headers }>;

const json = (v: unknown) => JSON.stringify(v);
const MISSING = "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e";
const BIG = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x20);

/** Each refusal of a JSON body: 400 invalid JSON, 415 another media type, 413 over the body limit, 401 no key. */
async function bodyRefusals(call: Call, c: ContractCall, valid: string): Promise<void> {
  expect((await call({ ...c, body: "{" })).status).toBe(400);
  expect((await call({ ...c, body: valid, headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect((await call({ ...c, body: BIG })).status).toBe(413);
  expect((await call({ ...c, key: null, body: valid })).status).toBe(401);
}

export async function goldenCalls(call: Call): Promise<void> {
  const made = await call({
    method: "POST",
    template: "/api/v1/templates",
    url: "/api/v1/templates",
    body: json({ name: "Golden", engine: "ejs", html_template: "<p><%= n %></p>", require_approval: true }),
  });
  expect(made.status).toBe(201);
  const tid = made.body.template_id as string;
  const base = `/api/v1/templates/${tid}`;

  const patch = { method: "PATCH", template: "/api/v1/templates/{templateID}", url: base };
  expect((await call({ ...patch, body: json({ require_approval: true }) })).status).toBe(200);
  expect((await call({ ...patch, body: json({ require_approval: "yes" }) })).status).toBe(422);
  expect((await call({ ...patch, url: `/api/v1/templates/${MISSING}`, body: json({ require_approval: true }) })).status).toBe(404);
  await bodyRefusals(call, patch, json({ require_approval: true }));

  const put = { method: "POST", template: "/api/v1/templates/{templateID}/samples", url: `${base}/samples` };
  expect((await call({ ...put, body: json({ name: "s1", data: { n: 1 } }) })).status).toBe(201);
  expect((await call({ ...put, body: json({ name: "s1", data: { n: 2 } }) })).status).toBe(200);
  expect((await call({ ...put, body: json({ name: "no/slash" }) })).status).toBe(422);
  expect((await call({ ...put, url: `/api/v1/templates/${MISSING}/samples`, body: json({ name: "s1" }) })).status).toBe(404);
  await bodyRefusals(call, put, json({ name: "s1" }));
  for (let i = 2; i <= 20; i++) expect((await call({ ...put, body: json({ name: `s${i}`, data: { n: i } }) })).status).toBe(201);
  const full = await call({ ...put, body: json({ name: "s21", data: { n: 21 } }) });
  expect({ status: full.status, error: full.body.error }).toEqual({ status: 409, error: "sample_limit_reached" });

  const list = { method: "GET", template: "/api/v1/templates/{templateID}/samples", url: `${base}/samples` };
  expect((await call(list)).body.data).toHaveLength(20);
  expect((await call({ ...list, url: `/api/v1/templates/${MISSING}/samples` })).status).toBe(404);
  expect((await call({ ...list, key: null })).status).toBe(401);

  const del = { method: "DELETE", template: "/api/v1/templates/{templateID}/samples/{name}", url: `${base}/samples/s20` };
  for (let i = 3; i <= 20; i++) expect((await call({ ...del, url: `${base}/samples/s${i}` })).status).toBe(200);
  expect((await call(del)).status).toBe(404);
  expect((await call({ ...del, key: null })).status).toBe(401);

  // Version 2 changes the text: changed on both samples, so it waits for its approval.
  const saved = await call({
    method: "POST",
    template: "/api/v1/templates/{templateID}/versions",
    url: `${base}/versions`,
    body: json({ html_template: "<p>n = <%= n %></p>" }),
  });
  expect(saved.status).toBe(201);
  expect(saved.body.comparison.status).toBe("changed");

  const compare = {
    method: "POST",
    template: "/api/v1/templates/{templateID}/versions/{version}/compare",
    url: `${base}/versions/2/compare`,
  };
  const c = await call({ ...compare, body: json({ base: 1 }) });
  expect(c.status).toBe(200);
  expect((await call({ ...compare, body: json({ base: 0 }) })).status).toBe(422);
  expect((await call({ ...compare, url: `${base}/versions/9/compare`, body: "{}" })).status).toBe(404);
  await bodyRefusals(call, compare, "{}");

  const last = { method: "GET", template: "/api/v1/templates/{templateID}/versions/{version}/compare", url: `${base}/versions/2/compare` };
  expect((await call(last)).body.created_at).toBe(c.body.created_at);
  expect((await call({ ...last, url: `${base}/versions/1/compare` })).status).toBe(404);
  expect((await call({ ...last, key: null })).status).toBe(401);

  const picture = { method: "GET", template: "/api/v1/templates/{templateID}/pictures/{picture}", url: c.body.samples[0].pages[0].diff };
  const png = await call(picture);
  expect(png.status).toBe(200);
  expect(png.headers.get("content-type")).toBe("image/png");
  expect((await call({ ...picture, url: `${base}/pictures/${"0".repeat(64)}.png` })).status).toBe(404);
  expect((await call({ ...picture, key: null })).status).toBe(401);

  const approve = {
    method: "POST",
    template: "/api/v1/templates/{templateID}/versions/{version}/approve",
    url: `${base}/versions/2/approve`,
  };
  const ok = await call(approve);
  expect({ status: ok.status, default: ok.body.data.default_version }).toEqual({ status: 200, default: 2 });
  expect((await call({ ...approve, url: `${base}/versions/7/approve` })).status).toBe(404);
  expect((await call({ ...approve, key: null })).status).toBe(401);
}
