// Image output (options.image, issue 44 item 1) on real reports, every picture decoded by a tool that is
// not reportgen's: pngcheck, djpeg, dwebp, unzip; and compared with pdftoppm on the same report printed as PDF.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetchLink, generate, type TestApp, useRenderApp } from "../helpers/app";
import { meanAbsDiff, pngPixels } from "../helpers/png-pixels";
import { expectError } from "../helpers/scenario";

setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const pages = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<section style="${i ? "break-before:page;" : ""}padding:20mm;font:14pt sans-serif"><h1 style="color:#c03">Page ${i + 1}</h1>` +
      `<p style="background:#def">Invoice 2026-${i + 1}: 1.062,40 EUR</p></section>`,
  ).join("");

/** Runs `cmd` on `bytes` written to a file; its exit code, standard output and error. */
function onFile(bytes: Uint8Array, ext: string, cmd: (file: string, dir: string) => string[]) {
  const dir = mkdtempSync(join(tmpdir(), "rg-img-"));
  const file = join(dir, `in.${ext}`);
  writeFileSync(file, bytes);
  try {
    const p = Bun.spawnSync(cmd(file, dir));
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString(), dir, raw: new Uint8Array(p.stdout) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function picture(html: string, options: Record<string, unknown>) {
  const { report, link } = await generate(t, { engine: "raw", html_template: html, options });
  expect(report.error).toBeNull();
  expect(report.status).toBe("succeeded");
  const res = await fetchLink(t, link!);
  return { report, type: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
}

/**
 * pdftoppm's PNG of one page of `pdf` at `dpi`, sized as the paper is (A4: Chromium writes 595.92 x
 * 842.88 pt, which plain -r 150 draws 1242 x 1756 px; the paper is 1240 x 1754).
 */
function pdftoppm(pdf: Uint8Array, page: number, dpi: number): Uint8Array {
  const [w, h] = [Math.round((595.28 * dpi) / 72), Math.round((841.89 * dpi) / 72)];
  const dir = mkdtempSync(join(tmpdir(), "rg-ppm-"));
  try {
    writeFileSync(join(dir, "in.pdf"), pdf);
    const p = Bun.spawnSync([
      "pdftoppm",
      "-scale-to-x",
      String(w),
      "-scale-to-y",
      String(h),
      "-png",
      "-f",
      String(page),
      "-l",
      String(page),
      "-singlefile",
      join(dir, "in.pdf"),
      join(dir, "out"),
    ]);
    expect(p.exitCode).toBe(0);
    return new Uint8Array(readFileSync(join(dir, "out.png")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("png", () => {
  test("A4 at the default 150 dpi is 1240 x 1754 px, passes pngcheck, and matches pdftoppm on the printed PDF", async () => {
    const { report, type, bytes } = await picture(pages(2), { image: { format: "png" } });
    expect(type).toBe("image/png");
    expect(report.page_count).toBe(1);
    expect(report.image).toEqual({ format: "png", dpi: 150, pages: "1", page_count: 1, content_type: "image/png" });
    const check = onFile(bytes, "png", (f) => ["pngcheck", f]);
    expect(check.code).toBe(0);
    expect(check.out).toContain("1240x1754");
    const printed = await generate(t, { engine: "raw", html_template: pages(2), options: {} });
    const diff = meanAbsDiff(pngPixels(bytes), pngPixels(pdftoppm(printed.pdf!, 1, 150)));
    console.log(`png vs pdftoppm, mean absolute difference per channel: ${(diff * 255).toFixed(3)}/255`);
    expect(diff).toBeLessThanOrEqual(4 / 255);
  });

  test("with the print options a PDF gets: the watermark and page numbers are in the picture", async () => {
    const plain = await picture(pages(1), { image: { format: "png", dpi: 72 } });
    const marked = await picture(pages(1), { image: { format: "png", dpi: 72 }, watermark: { text: "DRAFT" }, page_numbers: {} });
    expect(meanAbsDiff(pngPixels(plain.bytes), pngPixels(marked.bytes))).toBeGreaterThan(0.001);
  });

  test('pages "all" is a ZIP of page-001.png ... in page order, each page its own', async () => {
    const { report, type, bytes } = await picture(pages(3), { image: { format: "png", dpi: 72, pages: "all" } });
    expect(type).toBe("application/zip");
    expect(report.page_count).toBe(3);
    expect(report.image.content_type).toBe("application/zip");
    const listed = onFile(bytes, "zip", (f) => ["unzip", "-Z1", f]);
    expect(listed.out.trim().split("\n")).toEqual(["page-001.png", "page-002.png", "page-003.png"]);
    const printed = await generate(t, { engine: "raw", html_template: pages(3), options: {} });
    for (const [i, name] of ["page-001.png", "page-002.png", "page-003.png"].entries()) {
      const png = onFile(bytes, "zip", (f) => ["unzip", "-p", f, name]).raw;
      expect(onFile(png, "png", (f) => ["pngcheck", "-q", f]).code).toBe(0);
      const ours = pngPixels(png);
      const theirs = pngPixels(pdftoppm(printed.pdf!, i + 1, 72));
      expect(meanAbsDiff(ours, theirs)).toBeLessThanOrEqual(4 / 255);
    }
  });

  test('pages "2-4" of a 3-page document are pages 2 and 3; a range past the end fails image_pages_missing', async () => {
    const { report, bytes } = await picture(pages(3), { image: { format: "png", dpi: 72, pages: "2-4" } });
    expect(report.page_count).toBe(2);
    expect(
      onFile(bytes, "zip", (f) => ["unzip", "-Z1", f])
        .out.trim()
        .split("\n"),
    ).toEqual(["page-001.png", "page-002.png"]);
    const { report: failed } = await generate(t, {
      engine: "raw",
      html_template: pages(1),
      options: { image: { format: "png", pages: "3" } },
    });
    expect(failed.status).toBe("failed");
    expect(failed.error.code).toBe("image_pages_missing");
  });
});

test("jpeg: djpeg decodes it at the asked size, and a lower quality is smaller", async () => {
  const high = await picture(pages(1), { image: { format: "jpeg", dpi: 100, quality: 95 } });
  const low = await picture(pages(1), { image: { format: "jpeg", dpi: 100, quality: 30 } });
  expect(high.type).toBe("image/jpeg");
  const decoded = onFile(high.bytes, "jpg", (f) => ["djpeg", "-pnm", f]);
  expect(decoded.code).toBe(0);
  // A4 at 100 dpi: 8.27 x 11.69 in.
  expect(decoded.out.slice(0, 20)).toMatch(/^P6\s+827\s+1169\s/);
  expect(low.bytes.length).toBeLessThan(high.bytes.length);
});

test("webp: dwebp decodes it at the asked size", async () => {
  const { type, bytes } = await picture(pages(1), { image: { format: "webp", dpi: 72, quality: 80 } });
  expect(type).toBe("image/webp");
  const decoded = onFile(bytes, "webp", (f, dir) => ["dwebp", f, "-ppm", "-o", join(dir, "out.ppm")]);
  expect(decoded.code).toBe(0);
  expect(decoded.err).toContain("Dimensions: 595 x 842");
});

test("a stored template's options.image makes every report of it a picture", async () => {
  const saved = await t.request("POST", "/api/v1/templates", {
    body: { name: "Pictured", engine: "raw", html_template: pages(1), options: { image: { format: "png", dpi: 72 } } },
  });
  expect(saved.status).toBe(201);
  const { template_id } = (await saved.json()) as { template_id: string };
  const { report, link } = await generate(t, { template_id });
  expect(report.image.format).toBe("png");
  expect((await fetchLink(t, link!)).headers.get("content-type")).toBe("image/png");
});

describe("422 image_conflict names both fields", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["pdfa", { pdfa: "2b" }],
    ["encryption", { encryption: { owner_password: "owner-secret" } }],
    ["signature", { signature: { identity_id: "00000000-0000-4000-8000-000000000000" } }],
    ["linearize", { linearize: true }],
    ["attachments", { attachments: [{ filename: "a.txt", content_base64: "aGk=" }] }],
  ];
  for (const [field, options] of cases)
    test(field, async () => {
      const res = await t.request("POST", "/api/v1/generate-pdf-async", {
        body: { engine: "raw", html_template: "<p>x</p>", options: { image: { format: "png" }, ...options } },
      });
      const body = await expectError(res, 422, "image_conflict");
      expect(body.details.map((d: { field: string }) => d.field)).toEqual([`options.${field}`]);
      expect(body.message).toContain("options.image");
    });

  test("an image report cannot be a merge's part", async () => {
    const a = await picture(pages(1), { image: { format: "png", dpi: 72 } });
    const b = await generate(t, { engine: "raw", html_template: pages(1), options: {} });
    const res = await t.request("POST", "/api/v1/reports/merge", { body: { report_ids: [b.report.report_id, a.report.report_id] } });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("report_ids[1]");
  });
});
