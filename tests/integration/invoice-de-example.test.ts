// The worked German invoice of docs/templates.md, from its committed files (docs/examples/invoice-de/), through
// the service as the guide does it: logo and font uploaded as assets, a stored template with its schema and
// sample data, a report from it. The PDF is then read with independent tools, one check per feature the
// example shows: Intl (pdftotext reads de-DE amounts and dates), the asset library (pdffonts lists the
// uploaded font as embedded, pdftotext reads the word only the SVG logo holds) and epcQr (zbarimg decodes the
// GiroCode from a 300 dpi rendering). If any of the three breaks, so does this test, and the example with it.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, type TestApp, useRenderApp } from "../helpers/app";
import { pageText, pdfFonts } from "../helpers/pdf";

setDefaultTimeout(90_000);

const EX = join(import.meta.dir, "../../docs/examples/invoice-de");
const file = (name: string) => readFileSync(join(EX, name));
const json = (name: string) => JSON.parse(file(name).toString("utf8"));

let t: TestApp;
useRenderApp((a) => (t = a));

function run(cmd: string[]): string {
  const p = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd[0]} exited ${p.exitCode}: ${p.stderr.toString()}`);
  return p.stdout.toString();
}

test("the committed invoice example prints de-DE amounts and dates, the uploaded logo and font, and a GiroCode that decodes", async () => {
  for (const [name, type] of [
    ["logo.svg", "image/svg+xml"],
    ["source-code-pro-500.woff2", "font/woff2"],
  ] as const) {
    const r = await t.request("POST", "/api/v1/assets", { body: { name, type, content_base64: file(name).toString("base64") } });
    expect({ name, status: r.status }).toEqual({ name, status: 201 });
  }

  const sample = json("sample-data.json");
  const saved = await t.request("POST", "/api/v1/templates", {
    body: {
      name: "Rechnung (de-DE)",
      engine: "ejs",
      html_template: file("template.ejs").toString("utf8"),
      data_schema: json("schema.json"),
      sample_data: sample,
      options: { format: "A4", print_background: true },
    },
  });
  expect(saved.status).toBe(201);
  const { template_id, warnings } = (await saved.json()) as { template_id: string; warnings: { code: string }[] };
  // The preflight rendered the sample with the uploaded assets: nothing missing, nothing failed.
  const codes = warnings.map((w) => w.code);
  expect(codes).toContain("sample_render");
  expect(codes.filter((c) => c === "missing_asset" || c === "sample_render_failed")).toEqual([]);

  const { report, pdf } = await generate(t, { template_id, data: sample });
  expect(report.status).toBe("succeeded");
  expect(report.template_id).toBe(template_id);

  // Intl: 8 × 125 + 49,90 + 12,50 = 1.062,40 net, 19 % VAT 201,86, 1.264,26 gross; dates day.month.year.
  const text = pageText(pdf!, 1).replace(/\u00a0/g, " ");
  for (const s of ["1.000,00 €", "1.062,40 €", "201,86 €", "1.264,26 €", "Umsatzsteuer 19 %", "26.11.2026", "10.12.2026"])
    expect({ s, found: text.includes(s) }).toEqual({ s, found: true });
  expect(text).not.toContain("1264.26");

  // The asset library: the font the template's @font-face loads from asset:…woff2 is embedded, and the SVG
  // logo's word (uppercase, in no other text of the page) prints.
  const fonts = pdfFonts(pdf!);
  expect(fonts.filter((f) => f.name.endsWith("+SourceCodePro-Medium")).map((f) => f.embedded)).toEqual([true]);
  expect(text).toContain("MUSTERWERK");

  // epcQr: the EPC069-12 payload, read back by zbar from the printed page.
  const dir = mkdtempSync(join(tmpdir(), "reportgen-invoice-de-"));
  try {
    writeFileSync(join(dir, "invoice.pdf"), pdf!);
    run(["pdftoppm", "-r", "300", "-png", "-f", "1", "-l", "1", "-singlefile", join(dir, "invoice.pdf"), join(dir, "p1")]);
    const decoded = run(["zbarimg", "-q", "--raw", "--nodbus", "-Sbinary", join(dir, "p1.png")]);
    expect(decoded.replace(/\n$/, "")).toBe(
      [
        "BCD",
        "002",
        "1",
        "SCT",
        "COBADEFFXXX",
        "Musterwerk GmbH",
        "DE89370400440532013000",
        "EUR1264.26",
        "",
        "",
        "Rechnung 2026-0042",
      ].join("\n"),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
