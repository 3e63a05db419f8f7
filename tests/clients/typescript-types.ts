// The TypeScript client's types are the document's, exactly: the repository's tsc compiles this file (it is never
// run), so a body or answer typed too loosely (any, unknown) leaves a @ts-expect-error unused and fails the typecheck.
import { createClient } from "../../clients/typescript/src/index";

const c = createClient({ baseUrl: "x", apiKey: "y" });
export async function probe() {
  const q = await c.reports.generate({ engine: "ejs", html_template: "x", data: {} });
  const s: string = q.report_id;
  // @ts-expect-error engine is a closed list
  await c.reports.generate({ engine: "nope", html_template: "x" });
  const r = await c.reports.get(s);
  const st: "queued" | "processing" | "succeeded" | "failed" | "expired" = r.status;
  // @ts-expect-error no such field
  r.nope;
  const l = await c.reports.waitForPdf(s);
  const u: string = l.data;
  const k = await c.keys.create({ name: "n" });
  const kv: string = k.data;
  const t = await c.templates.create({ name: "n", engine: "raw", html_template: "<p>" });
  const tid: string = t.template_id;
  const v = await c.eInvoices.validate({ xml: "<x/>" });
  const ok: boolean = v.valid;
  const a = await c.assets.upload({ name: "a.css", content: "p{}" });
  const aid: string = a.data.id;
  // docs/clients.md's call of an operation by its path.
  const usage = await c.request("get", "/api/v1/usage", { query: { group_by: "key" } });
  // @ts-expect-error group_by is day or key
  await c.request("get", "/api/v1/usage", { query: { group_by: "week" } });
  // @ts-expect-error no such path
  await c.request("get", "/api/v1/nope");
  return [st, u, kv, tid, ok, aid, usage];
}
