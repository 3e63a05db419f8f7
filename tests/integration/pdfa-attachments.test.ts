// options.pdfa "3b" with attachments that carry a mime_type, end to end (real Chromium and qpdf): the
// PDF/A step rewrites each embedded file's dictionary in qpdf's JSON, where the /Subtype name
// (/text#2fcsv in the file) must be written as qpdf reads it ("/text/csv"). Every kind of media type
// that options.attachments allows is tried, and the result checked with independent tools: qpdf --check,
// the /Subtype read back by qpdf, pdfdetach's list and the bytes it saves. With "2b", attachments are
// refused at submit.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, type TestApp, useRenderApp } from "../helpers/app";

setDefaultTimeout(120_000);

let t: TestApp;
useRenderApp((a) => (t = a));

/** Runs a tool on the PDF written to a fresh folder; `cmd` gets the file and the folder. */
function tool(pdf: Uint8Array, cmd: (file: string, dir: string) => string[], read?: string) {
  const dir = mkdtempSync(join(tmpdir(), "rg-pdfa-att-"));
  const file = join(dir, "report.pdf");
  writeFileSync(file, pdf);
  try {
    const p = Bun.spawnSync(cmd(file, dir));
    return { code: p.exitCode, out: p.stdout.toString(), saved: read ? readFileSync(join(dir, read), "utf8") : undefined };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Objects = Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }>;

// Each character options.attachments allows in a media type, the common types the issue named, and
// vendor types with dots and a structured-syntax suffix.
const MIME_TYPES = [
  "text/csv",
  "application/xml",
  "text/plain",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "image/svg+xml",
  "Application/X-Weird!$&^_.+-Type",
];

describe("pdfa 3b with typed attachments", () => {
  test("every allowed media type: the report succeeds, qpdf --check passes, /Subtype reads back, pdfdetach saves the file", async () => {
    const files = MIME_TYPES.map((mime, i) => ({ filename: `data-${i}.csv`, content: `a,b\n${i},${mime}\n`, mime }));
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<p>x</p>",
      options: {
        pdfa: "3b",
        attachments: files.map((f) => ({
          filename: f.filename,
          content_base64: Buffer.from(f.content).toString("base64"),
          mime_type: f.mime,
        })),
      },
    });
    expect(report.error).toBeNull();
    expect(report.status).toBe("succeeded");
    const check = tool(pdf!, (f) => ["qpdf", "--check", f]);
    expect(check.out).toContain("No syntax or stream encoding errors");
    expect(check.code).toBe(0);
    const objects = (JSON.parse(tool(pdf!, (f) => ["qpdf", "--json=2", "--json-key=qpdf", f]).out) as { qpdf: [unknown, Objects] }).qpdf[1];
    const catalog = objects[`obj:${objects.trailer!.value!["/Root"]}`]!.value!;
    const subtypes = new Map<string, unknown>();
    for (const ref of catalog["/AF"] as string[]) {
      const spec = objects[`obj:${ref}`]!.value!;
      const file = objects[`obj:${(spec["/EF"] as Record<string, string>)["/F"]}`]!.stream!.dict;
      subtypes.set(String(spec["/UF"]).slice(2), file["/Subtype"]);
    }
    for (const f of files) expect([f.filename, subtypes.get(f.filename)]).toEqual([f.filename, `/${f.mime}`]);
    expect(tool(pdf!, (f) => ["pdfdetach", "-list", f]).out).toContain(`${files.length} embedded files`);
    for (const [i, f] of files.entries())
      expect(tool(pdf!, (p, dir) => ["pdfdetach", "-save", String(i + 1), "-o", join(dir, "out"), p], "out").saved).toBe(f.content);
  });

  test("the issue's request: one text/csv attachment", async () => {
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<p>x</p>",
      options: { pdfa: "3b", attachments: [{ filename: "data.csv", content_base64: "YSxiCjEsMgo=", mime_type: "text/csv" }] },
    });
    expect(report.status).toBe("succeeded");
    expect(tool(pdf!, (f, dir) => ["pdfdetach", "-savefile", "data.csv", "-o", join(dir, "out"), f], "out").saved).toBe("a,b\n1,2\n");
  });

  test("2b refuses attachments at submit, whatever their media type (422 pdfa_conflict)", async () => {
    for (const mime of [...MIME_TYPES, undefined]) {
      const res = await t.request("POST", "/api/v1/generate-pdf-async", {
        body: {
          engine: "raw",
          html_template: "<p>x</p>",
          options: { pdfa: "2b", attachments: [{ filename: "data.csv", content_base64: "YSxiCjEsMgo=", mime_type: mime }] },
        },
      });
      expect([mime, res.status]).toEqual([mime, 422]);
      expect(((await res.json()) as { error: string }).error).toBe("pdfa_conflict");
    }
  });
});
