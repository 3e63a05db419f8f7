// Assets in real renders (Chromium, checked with poppler): an uploaded PNG is in the PDF (pdfimages),
// an uploaded WOFF2 font, declared through an uploaded style sheet's @font-face, is the one embedded
// (pdffonts), the header template shows an asset too, and an unknown asset fails the report with
// asset_not_found naming it, without a retry.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generate, type TestApp, useRenderApp } from "../helpers/app";
import { png } from "../helpers/images";
import { pdfFonts, pdfImages } from "../helpers/pdf";

setDefaultTimeout(60_000);

const WOFF2 = readFileSync(join(import.meta.dir, "../../docs/examples/invoice-de/source-code-pro-500.woff2"));
/** Sizes no other image of the page has, so pdfimages' rows tell the two apart. */
const LOGO = png(37, 23, (x, y) => [x * 6, y * 10, 128]);
const HEADER_MARK = png(11, 7, () => [200, 30, 30]);
const CSS = `@font-face { font-family: Brand; src: url("asset:scp.woff2") format("woff2"); }
body { font-family: Brand, serif; }`;

let t: TestApp;
useRenderApp((a) => (t = a));

async function upload(name: string, bytes: Uint8Array | string) {
  const r = await t.request("POST", "/api/v1/assets", { body: { name, content_base64: Buffer.from(bytes).toString("base64") } });
  expect(r.status).toBeLessThan(300);
}

describe("a report that uses assets", () => {
  test("the image is in the PDF, the uploaded font is embedded, the header shows its asset on every page", async () => {
    await upload("logo.png", LOGO);
    await upload("mark.png", HEADER_MARK);
    await upload("scp.woff2", WOFF2);
    await upload("brand.css", CSS);
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: `<html><head><link rel="stylesheet" href="asset:brand.css"></head><body>
        <img src="asset:logo.png" alt="logo" style="width:74px">
        <p>Invoice 2026-0042 set in the brand font</p><div style="break-before:page">Page two</div></body></html>`,
      options: {
        header_template: `<div style="font-size:8px"><img src='asset:mark.png' style="height:10px"> Acme</div>`,
        print_background: true,
      },
    });
    expect(report.status).toBe("succeeded");
    const images = pdfImages(pdf!);
    expect(images.filter((i) => i.width === 37 && i.height === 23).map((i) => i.page)).toEqual([1]);
    expect(
      images
        .filter((i) => i.width === 11 && i.height === 7)
        .map((i) => i.page)
        .sort(),
    ).toEqual([1, 2]);
    const fonts = pdfFonts(pdf!).map((f) => f.name);
    expect(fonts.some((n) => n.includes("SourceCodePro"))).toBe(true);
  });

  test("an unknown asset fails the report with asset_not_found naming it, after one attempt", async () => {
    const { report } = await generate(t, { engine: "raw", html_template: `<p>x</p><img src="asset:missing-logo.png">` });
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("asset_not_found");
    expect(report.error.message).toContain("asset:missing-logo.png");
    expect(report.attempts).toBe(1);
  });

  test("an unknown asset in the footer template fails it too", async () => {
    const { report } = await generate(t, {
      engine: "raw",
      html_template: "<p>x</p>",
      options: { footer_template: `<img src="asset:nope.png">` },
    });
    expect(report.error.code).toBe("asset_not_found");
    expect(report.error.message).toContain("asset:nope.png");
  });

  test("EJS output is resolved too, and another account's asset of that name is not found", async () => {
    const other = (await t.app.services.keys.createForAccount("someone-else", "k")).value;
    const ok = await generate(t, { engine: "ejs", html_template: `<img src="asset:<%= logo %>">`, data: { logo: "logo.png" } });
    expect(ok.report.status).toBe("succeeded");
    expect(pdfImages(ok.pdf!).some((i) => i.width === 37)).toBe(true);
    const theirs = await generate(t, { engine: "raw", html_template: `<img src="asset:logo.png">` }, other);
    expect(theirs.report.error.code).toBe("asset_not_found");
  });

  test("a stored template's preview renders with the account's assets", async () => {
    const accountId = (await t.app.services.keyAuth.authenticate(t.key))!.accountId;
    const out = await t.app.services.templates.preview(accountId, { engine: "raw", htmlTemplate: `<img src="asset:logo.png">` });
    expect(pdfImages(out.pdf).some((i) => i.width === 37 && i.height === 23)).toBe(true);
    expect(out.warnings.some((w) => w.code === "missing_asset")).toBe(false);
  });
});
