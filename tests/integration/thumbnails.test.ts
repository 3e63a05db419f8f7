// GET /reports/{id}/thumbnail (issue 44 item 2) on real reports: page 1 as a PNG no wider than 320 px and
// no larger than 40 KB (checked by pngcheck), for PDFs, encrypted PDFs and image reports; made once
// and kept beside the report's file; removed with the report; another account's report is 404.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintKey } from "../helpers/access";
import { generate, type TestApp, useRenderApp } from "../helpers/app";
import { pngPixels } from "../helpers/png-pixels";

setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const invoice = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<section style="${i ? "break-before:page;" : ""}padding:15mm;font:11pt serif"><h1 style="color:#0a4">Invoice ${i + 1}</h1>` +
      Array.from({ length: 30 }, (_, r) => `<p>Line ${r}: consulting, ${r * 7} hours, ${(r * 131.5).toFixed(2)} EUR</p>`).join("") +
      "</section>",
  ).join("");

const thumbPath = (id: string) => join(t.dir, "reports", `${id}.thumb.png`);

/** The thumbnail of `id`, checked: pngcheck passes, at most 320 px wide, at most 40 KB. */
async function thumbnail(id: string): Promise<Uint8Array> {
  const res = await t.request("GET", `/api/v1/reports/${id}/thumbnail`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const png = new Uint8Array(await res.arrayBuffer());
  const dir = mkdtempSync(join(tmpdir(), "rg-thumb-"));
  try {
    writeFileSync(join(dir, "t.png"), png);
    const check = Bun.spawnSync(["pngcheck", join(dir, "t.png")]);
    expect(check.exitCode).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { width, height } = pngPixels(png);
  expect(width).toBeLessThanOrEqual(320);
  expect(width).toBeGreaterThanOrEqual(160);
  expect(height).toBeGreaterThan(width);
  expect(png.length).toBeLessThanOrEqual(40 * 1024);
  return png;
}

test("a PDF report's thumbnail is made on the first request, kept, served again unchanged, and removed with the report", async () => {
  const { report } = await generate(t, { engine: "raw", html_template: invoice(2), options: {} });
  const id = report.report_id;
  expect(existsSync(thumbPath(id))).toBe(false);
  const first = await thumbnail(id);
  expect(existsSync(thumbPath(id))).toBe(true);
  const made = statSync(thumbPath(id)).mtimeMs;
  await Bun.sleep(20);
  expect(await thumbnail(id)).toEqual(first);
  expect(statSync(thumbPath(id)).mtimeMs).toBe(made);
  expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
  expect(existsSync(thumbPath(id))).toBe(false);
  expect((await t.request("GET", `/api/v1/reports/${id}/thumbnail`)).status).toBe(404);
});

test("an encrypted PDF and an image report of several pages have thumbnails too, made at print time", async () => {
  const locked = await generate(t, {
    engine: "raw",
    html_template: invoice(1),
    options: { encryption: { user_password: "reader-pass", owner_password: "owner-pass" } },
  });
  await thumbnail(locked.report.report_id);
  for (const format of ["png", "jpeg", "webp"]) {
    const pictures = await generate(t, {
      engine: "raw",
      html_template: invoice(2),
      options: { image: { format, pages: "all", dpi: 100 } },
    });
    expect(pictures.report.page_count).toBeGreaterThan(1);
    // Made at print time from the first picture's samples: there before anyone asked.
    expect(existsSync(thumbPath(pictures.report.report_id))).toBe(true);
    await thumbnail(pictures.report.report_id);
  }
});

test("another account's report is 404; a key without reports:read is 403", async () => {
  const { report } = await generate(t, { engine: "raw", html_template: invoice(1), options: {} });
  const other = (await mintKey(t, { account: "globex", name: "g" })).value;
  expect((await t.request("GET", `/api/v1/reports/${report.report_id}/thumbnail`, { key: other })).status).toBe(404);
  const writer = (await mintKey(t, { scopes: ["reports:write"], name: "w" })).value;
  expect((await t.request("GET", `/api/v1/reports/${report.report_id}/thumbnail`, { key: writer })).status).toBe(403);
});
