// Stored templates over HTTP on PostgreSQL, rendered by a worker instance: the same API as on SQLite
// (tests/api/templates*.test.ts), end to end through the other backend — create, version, render a
// pinned and the latest version by id, schema refusal, cross-account 404, deletion.
import { expect, test } from "bun:test";
import { pdfText, type TestApp, waitForReport } from "../helpers/app";
import { usePostgres, usePostgresPair } from "../helpers/postgres";

const pair = usePostgresPair(usePostgres());

const json = async (t: TestApp, method: string, path: string, body?: unknown, key?: string) => {
  const r = await t.request(method, path, { body, key });
  return { status: r.status, body: (await r.json()) as any };
};

test("templates on PostgreSQL: versions, render by id (latest and pinned), schema refusal, other accounts, deletion", async () => {
  const { api } = pair();
  const schema = { type: "object", required: ["who"], properties: { who: { type: "string" } } };
  const c = await json(api, "POST", "/api/v1/templates", {
    name: "PG",
    engine: "ejs",
    html_template: "<p>one <%= who %></p>",
    data_schema: schema,
  });
  expect(c.status).toBe(201);
  const id = c.body.template_id;
  expect(
    (await json(api, "POST", `/api/v1/templates/${id}/versions`, { html_template: "<p>two <%= who %></p>", data_schema: schema })).body
      .version,
  ).toBe(2);

  const refused = await json(api, "POST", "/api/v1/generate-pdf-async", { template_id: id, data: { who: 1 } });
  expect(refused.status).toBe(422);
  expect(refused.body.details.map((d: any) => d.field)).toEqual(["data.who"]);

  const pinned = await json(api, "POST", "/api/v1/generate-pdf-async", { template_id: id, template_version: 1, data: { who: "Ada" } });
  const latest = await json(api, "POST", "/api/v1/generate-pdf-async", { template_id: id, data: { who: "Grace" } });
  for (const [sub, version, text] of [
    [pinned, 1, "one Ada"],
    [latest, 2, "two Grace"],
  ] as const) {
    expect(sub.status).toBe(202);
    const report = await waitForReport(api, sub.body.report_id, 60_000);
    expect(report).toMatchObject({ status: "succeeded", template_id: id, template_version: version });
    const link = (await json(api, "GET", `/api/v1/reports/${sub.body.report_id}/download`)).body.data as string;
    const pdf = new Uint8Array(await (await api.app.http.handle(new Request(link))).arrayBuffer());
    expect(await pdfText(pdf)).toContain(text);
  }

  const other = (await api.app.services.keys.createForAccount("other", "k")).value;
  expect((await json(api, "GET", `/api/v1/templates/${id}`, undefined, other)).status).toBe(404);
  expect((await json(api, "GET", "/api/v1/templates", undefined, other)).body.data).toEqual([]);

  expect((await json(api, "GET", "/api/v1/templates")).body.data.map((t: any) => t.template_id)).toEqual([id]);
  expect((await json(api, "DELETE", `/api/v1/templates/${id}`)).status).toBe(200);
  expect((await json(api, "GET", `/api/v1/templates/${id}/versions/1`)).status).toBe(404);
  expect((await json(api, "GET", `/api/v1/reports/${pinned.body.report_id}`)).body.data).toMatchObject({
    template_id: id,
    template_version: 1,
  });
}, 120_000);
