// The contract test's calls for schedules: each operation of /api/v1/schedules and each status it can
// reach on default settings, with a real tick's run listed (tests/blackbox/contract.test.ts checks every
// answer against the served OpenAPI document and that nothing documented was left out).
import { expect } from "bun:test";
import type { ContractCall } from "./contract-libraries";

type Call = (c: ContractCall) => Promise<{ status: number; body: any }>;

const json = (v: unknown) => JSON.stringify(v);
const MISSING = "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e";
/** Over the default body limit (10 MB): refused from its declared length. */
const TOO_BIG = () => new Uint8Array(11 * 1024 * 1024).fill(0x20);

export async function scheduleCalls(call: Call): Promise<void> {
  const tpl = await call({
    method: "POST",
    template: "/api/v1/templates",
    url: "/api/v1/templates",
    body: json({ name: "scheduled", engine: "ejs", html_template: "<p><%= n %></p>" }),
  });
  expect(tpl.status).toBe(201);
  const templateId = tpl.body.template_id as string;

  const create = { method: "POST", template: "/api/v1/schedules", url: "/api/v1/schedules" };
  const body = { name: "every second", cron: "* * * * * *", timezone: "Europe/Berlin", template_id: templateId, data: { n: 1 } };
  const made = await call({ ...create, body: json(body) });
  expect(made.status).toBe(201);
  const id = made.body.data.id as string;
  expect((await call({ ...create, body: json({ ...body, cron: "61 * * * *" }) })).status).toBe(422);
  expect((await call({ ...create, body: json({ ...body, template_id: MISSING }) })).status).toBe(404);
  expect((await call({ ...create, body: "{" })).status).toBe(400);
  expect((await call({ ...create, body: "x", headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect((await call({ ...create, body: TOO_BIG() })).status).toBe(413);
  expect((await call({ ...create, key: null, body: json(body) })).status).toBe(401);

  const list = { method: "GET", template: "/api/v1/schedules", url: "/api/v1/schedules" };
  expect((await call(list)).status).toBe(200);
  expect((await call({ ...list, url: "/api/v1/schedules?cursor=nonsense" })).status).toBe(400);
  expect((await call({ ...list, url: "/api/v1/schedules?limit=0" })).status).toBe(422);
  expect((await call({ ...list, key: null })).status).toBe(401);

  const one = { method: "GET", template: "/api/v1/schedules/{scheduleID}", url: `/api/v1/schedules/${id}` };
  expect((await call(one)).status).toBe(200);
  expect((await call({ ...one, url: `/api/v1/schedules/${MISSING}` })).status).toBe(404);
  expect((await call({ ...one, key: null })).status).toBe(401);

  // A tick or two pass: the runs list them, each with its report.
  const runs = { method: "GET", template: "/api/v1/schedules/{scheduleID}/runs", url: `/api/v1/schedules/${id}/runs` };
  const end = Date.now() + 15_000;
  let listed = await call(runs);
  while (!listed.body.data?.some((r: any) => r.status === "submitted") && Date.now() < end) {
    await Bun.sleep(200);
    listed = await call(runs);
  }
  expect(listed.status).toBe(200);
  expect(listed.body.data[0].report_id).toBeString();
  expect((await call({ ...runs, url: `/api/v1/schedules/${id}/runs?cursor=nonsense` })).status).toBe(400);
  expect((await call({ ...runs, url: `/api/v1/schedules/${id}/runs?limit=0` })).status).toBe(422);
  expect((await call({ ...runs, url: `/api/v1/schedules/${MISSING}/runs` })).status).toBe(404);
  expect((await call({ ...runs, key: null })).status).toBe(401);

  const patch = { method: "PATCH", template: "/api/v1/schedules/{scheduleID}", url: `/api/v1/schedules/${id}` };
  const paused = await call({ ...patch, body: json({ paused: true }) });
  expect(paused.status).toBe(200);
  expect(paused.body.data.paused).toBe(true);
  expect((await call({ ...patch, body: json({ timezone: "Mars/Olympus" }) })).status).toBe(422);
  expect((await call({ ...patch, url: `/api/v1/schedules/${MISSING}`, body: json({ paused: true }) })).status).toBe(404);
  expect((await call({ ...patch, body: "{" })).status).toBe(400);
  expect((await call({ ...patch, body: "{}", headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect((await call({ ...patch, body: TOO_BIG() })).status).toBe(413);
  expect((await call({ ...patch, key: null, body: json({ paused: false }) })).status).toBe(401);

  const del = { method: "DELETE", template: "/api/v1/schedules/{scheduleID}", url: `/api/v1/schedules/${id}` };
  expect((await call({ ...del, key: null })).status).toBe(401);
  expect((await call(del)).status).toBe(200);
  expect((await call(del)).status).toBe(404);
}
