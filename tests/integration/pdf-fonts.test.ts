// Real text in every script: TrueType fonts only (no Type 3), text extracted in source order, colour
// emoji, web fonts from data: URLs and operator fonts from --fonts-dir.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, type TestApp, useRenderApp } from "../helpers/app";
import { colourfulPixels, pageText, pdfFonts, renderPage } from "../helpers/pdf";

setDefaultTimeout(60_000);

const LIBERATION_SANS = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf";
const LIBERATION_MONO = "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf";

/** Liberation Sans under another family name ("Reportgen Tests"), so only --fonts-dir can provide it. */
function renamedFont(): Buffer {
  let font = readFileSync(LIBERATION_SANS);
  const swap = (from: string, to: string) => {
    for (const enc of ["latin1", "utf16le"] as const) {
      const f = enc === "latin1" ? Buffer.from(from, "latin1") : Buffer.from(from, "utf16le").swap16();
      const t = enc === "latin1" ? Buffer.from(to, "latin1") : Buffer.from(to, "utf16le").swap16();
      for (let i = font.indexOf(f); i >= 0; i = font.indexOf(f, i + 1)) t.copy(font, i);
    }
  };
  font = Buffer.from(font);
  swap("Liberation Sans", "Reportgen Tests");
  swap("LiberationSans", "ReportgenTests");
  return font;
}

const fontsDir = mkdtempSync(join(tmpdir(), "reportgen-fonts-"));
writeFileSync(join(fontsDir, "ReportgenTests.ttf"), renamedFont());
process.on("exit", () => rmSync(fontsDir, { recursive: true, force: true }));

let t: TestApp;
useRenderApp((a) => (t = a), { fontsDir });

/** One line per script, each marked so its text can be found in pdftotext's output. */
const SCRIPTS: Record<string, string> = {
  mixed: "FROMDATA[Zürich — 東京 — Ελλάδα]",
  chinese: "中文报告：本季度收入增长",
  japanese: "日本語のレポートです",
  korean: "한국어 보고서입니다",
  greek: "Ελληνική αναφορά",
  cyrillic: "Отчёт на русском языке",
  arabic: "تقرير باللغة العربية",
  hebrew: "דוח בשפה העברית",
  devanagari: "हिन्दी में रिपोर्ट",
  thai: "รายงานภาษาไทย",
};

/** pdftotext's line, with the bidi marks poppler puts around right-to-left runs removed. */
const clean = (s: string) => s.replace(/[\u200e\u200f\u202a-\u202e]/g, "").replace(/\s+/g, " ");

describe("every script prints as real text", () => {
  test("EJS data in ten scripts: TrueType fonts only, each line extracted in source order", async () => {
    const template = `<!doctype html><html><head><meta charset="utf-8"><title>Scripts</title></head><body>
<% for (const [k, v] of Object.entries(lines)) { %><p><%= k %>: <%= v %></p>
<% } %><p style="font-family: 'Noto Sans CJK SC'">named-cff: 中文报告</p></body></html>`;
    const { report, pdf } = await generate(t, { engine: "ejs", html_template: template, data: { lines: SCRIPTS } });
    expect(report.status).toBe("succeeded");
    const fonts = pdfFonts(pdf!);
    expect(fonts.filter((f) => f.type === "Type 3")).toEqual([]);
    for (const f of fonts) {
      expect(f.type).toBe("CID TrueType");
      expect(f.embedded).toBe(true);
    }
    // CJK, and the CFF family the template names, come from WenQuanYi Micro Hei.
    expect(fonts.some((f) => f.name.endsWith("+WenQuanYiMicroHei"))).toBe(true);
    expect(fonts.some((f) => /NotoSansCJK|NotoSerifCJK/.test(f.name))).toBe(false);

    const text = clean(pageText(pdf!, 1));
    for (const [k, v] of Object.entries(SCRIPTS)) expect(text).toContain(`${k}: ${v}`);
    expect(text).toContain("named-cff: 中文报告");
  });

  // Debian's own rules pick Noto CJK (CFF, Type 3) for text tagged with a CJK language: ours win.
  for (const [lang, sample, font] of [
    ["ja", "日本語のレポートです", "WenQuanYiMicroHei"],
    ["zh-CN", "中文报告：本季度收入增长", "WenQuanYiMicroHei"],
    ["zh-TW", "中文報告：本季度收入增長", "WenQuanYiMicroHei"],
    ["ko", "한국어 보고서입니다", "WenQuanYiMicroHei"],
  ] as const) {
    test(`a document in lang="${lang}" prints with ${font}, as TrueType`, async () => {
      const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"></head><body><p>${lang}: ${sample}</p></body></html>`;
      const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
      expect(report.status).toBe("succeeded");
      const fonts = pdfFonts(pdf!);
      expect(fonts.map((f) => f.type)).not.toContain("Type 3");
      expect(fonts.some((f) => f.name.endsWith(`+${font}`))).toBe(true);
      expect(clean(pageText(pdf!, 1))).toContain(`${lang}: ${sample}`);
    });
  }

  test("Japanese glyph forms from IPAexGothic when the template names it", async () => {
    const html = `<!doctype html><html lang="ja"><head><meta charset="utf-8"></head><body><p style="font-family:'IPAexGothic'">named-ja: 日本語のレポートです</p></body></html>`;
    const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
    expect(report.status).toBe("succeeded");
    expect(pdfFonts(pdf!).map((f) => f.name.replace(/^[A-Z]{6}\+/, ""))).toEqual(["IPAexGothic"]);
    expect(clean(pageText(pdf!, 1))).toContain("named-ja: 日本語のレポートです");
  });

  test("bold text in scripts without a bold face stays real text (no synthetic-bold Type 3)", async () => {
    const html = `<meta charset="utf-8"><h1>見出し 中文标题 한국어 제목 عنوان כותרת शीर्षक หัวข้อ</h1><p><b>太字</b> <strong>粗体</strong></p>`;
    const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
    expect(report.status).toBe("succeeded");
    expect(pdfFonts(pdf!).filter((f) => f.type === "Type 3")).toEqual([]);
    expect(clean(pageText(pdf!, 1))).toContain("見出し 中文标题 한국어 제목");
  });

  test("emoji print as colour glyphs, not tofu", async () => {
    const html = `<meta charset="utf-8"><p style="font-size:120px;margin:0">😀🎉🚀</p>`;
    const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
    expect(report.status).toBe("succeeded");
    // Noto Color Emoji glyphs are bitmaps: saturated yellow/red/blue pixels. A tofu box is black on white.
    expect(colourfulPixels(renderPage(pdf!))).toBeGreaterThan(200);
    // Skia can only put colour glyphs in a PDF as images inside a Type 3 font; the text still extracts.
    expect(pageText(pdf!, 1)).toContain("😀🎉🚀");
    const plain = await generate(t, { engine: "raw", html_template: `<p style="font-size:120px;margin:0">ABC</p>` });
    expect(colourfulPixels(renderPage(plain.pdf!))).toBe(0);
  });

  test("a web font from a data: URL is used and embedded", async () => {
    const font = readFileSync(LIBERATION_MONO).toString("base64");
    const html = `<style>@font-face{font-family:"Brand";src:url(data:font/ttf;base64,${font}) format("truetype")}p{font-family:"Brand",serif}</style><p>WEBFONT text</p>`;
    const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
    expect(report.status).toBe("succeeded");
    const fonts = pdfFonts(pdf!);
    expect(fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, ""))).toContain("LiberationMono");
    expect(fonts.filter((f) => f.type === "Type 3")).toEqual([]);
    expect(pageText(pdf!, 1)).toContain("WEBFONT text");
  });

  test("a font from --fonts-dir is available to templates by its family name", async () => {
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: `<p style="font-family:'Reportgen Tests'">FONTSDIR text</p>`,
    });
    expect(report.status).toBe("succeeded");
    const names = pdfFonts(pdf!).map((f) => f.name.replace(/^[A-Z]{6}\+/, ""));
    expect(names).toEqual(["ReportgenTests"]);
    expect(pageText(pdf!, 1)).toContain("FONTSDIR text");
  });
});
