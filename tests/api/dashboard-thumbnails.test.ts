// The dashboard's reports list shows each succeeded report's thumbnail (an img with alt text), served
// by /dashboard/reports/{id}/thumbnail to the session's account only. The PDF here is made with qpdf;
// real Chromium: tests/integration/thumbnails.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintKey } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";
import { submit, succeed } from "../helpers/scenario";

let t: TestApp;
let id: string;
let queuedId: string;
const work = mkdtempSync(join(tmpdir(), "reportgen-dash-thumb-"));

async function get(path: string, key = t.key): Promise<Response> {
  const { id: session } = await t.app.services.sessions.create((await t.app.services.keyAuth.authenticate(key))!);
  return t.app.http.handle(new Request(`http://localhost${path}`, { headers: { cookie: `rg_session=${session}` } }));
}

beforeAll(async () => {
  t = await createTestApp();
  id = await submit(t);
  queuedId = await submit(t);
  expect(Bun.spawnSync(["qpdf", "--empty", "--pages", "docs/examples/statement.pdf", "1", "--", join(work, "one.pdf")]).exitCode).toBe(0);
  await succeed(t, id, { bytes: readFileSync(join(work, "one.pdf")) });
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

test("a succeeded report's row shows its thumbnail with alt text; an unfinished one's shows none", async () => {
  const page = await (await get("/dashboard/reports")).text();
  const row = (r: string) => new RegExp(`<tr id="report-${r}"[\\s\\S]*?</tr>`).exec(page)?.[0] ?? "";
  expect(row(id)).toContain(`<img class="thumb" src="/dashboard/reports/${id}/thumbnail" alt="Page 1 of report ${id.slice(0, 8)}"`);
  expect(row(queuedId)).not.toContain("<img");
});

test("the thumbnail is a PNG for the session's account, 404 for another's", async () => {
  const res = await get(`/dashboard/reports/${id}/thumbnail`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const png = new Uint8Array(await res.arrayBuffer());
  expect(Buffer.from(png.subarray(1, 4)).toString()).toBe("PNG");
  const other = (await mintKey(t, { account: "globex", name: "g" })).value;
  expect((await get(`/dashboard/reports/${id}/thumbnail`, other)).status).toBe(404);
});
