// Pure parts of the PDF pipeline (issue 26): the plan, qpdf's arguments, the password seal, and the
// one-page overlay PDFs (checked with qpdf --check and pdftotext, as real files).
import { describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PasswordSeal } from "../../src/lib/seal";
import { jpegSize, postOptionProblems } from "../../src/pdf/option-problems";
import type { PdfPermission } from "../../src/pdf/options";
import { firstPageSize, jpegStampPdf, watermarkPdf } from "../../src/pdf/overlay-pdf";
import { paramsOf, plan as planPostProcessing } from "../../src/pdf/plan";
import { qpdfJob } from "../../src/pdf/qpdf";
import { watermark } from "../../src/pdf/steps/watermark";
import { SMALL_JPEG_BASE64 } from "../helpers/pdf";

// What each step's prepare() wrote, by step name.
const files = { input: "in.pdf", output: "out.pdf", watermark: "wm.pdf", stamp: "st.pdf", attachments: ["a0", "a1"] };

describe("qpdfJob", () => {
  test("a plan with every option: layers, attachments, linearize and encryption in qpdf's JSON job", () => {
    const plan = planPostProcessing(
      {
        watermark: { text: "DRAFT", position: "under" },
        stamp: { pdf_report_id: "x", position: "over" },
        attachments: [{ filename: "--a.xml", content_base64: "PGEvPg==", mime_type: "application/xml" }],
        linearize: true,
        encryption: { permissions: ["print", "annotate"] },
      },
      { user: "--print=full", owner: "o" },
    );
    expect(qpdfJob(plan, files, "outline.json")).toEqual({
      inputFile: "in.pdf",
      outputFile: "out.pdf",
      warningExit0: "",
      noWarn: "",
      updateFromJson: "outline.json",
      underlay: { file: "wm.pdf", repeat: "1" },
      overlay: { file: "st.pdf", repeat: "1" },
      addAttachment: [{ file: "a0", key: "--a.xml", filename: "--a.xml", mimetype: "application/xml" }],
      linearize: "",
      encrypt: {
        userPassword: "--print=full",
        ownerPassword: "o",
        "256bit": { print: "full", extract: "n", modify: "none", annotate: "y" },
      },
    });
  });

  test("encryption without permissions refuses everything; modify implies annotate", () => {
    const bits = (permissions: PdfPermission[]) =>
      (qpdfJob(planPostProcessing({ encryption: { permissions } }, { user: "", owner: "o" }), files).encrypt as any)["256bit"];
    expect(bits([])).toEqual({ print: "none", extract: "n", modify: "none", annotate: "n" });
    expect(bits(["modify", "copy"])).toEqual({ print: "none", extract: "y", modify: "all", annotate: "y" });
  });

  test("the defaults of a watermark: over, 45 degrees, opacity 0.25", () => {
    expect(paramsOf(planPostProcessing({ watermark: { text: "X" } }), watermark)).toEqual({
      text: "X",
      opacity: 0.25,
      angle: 45,
      position: "over",
      embedFont: false,
    });
  });

  test("the plan names its steps in the pipeline's order, whatever the options' order; none without options", () => {
    const plan = planPostProcessing(
      { encryption: {}, linearize: true, attachments: [{ filename: "a", content_base64: "" }], watermark: { text: "X" } },
      { user: "", owner: "o" },
    );
    expect(plan.steps.map((s) => s.name)).toEqual(["watermark", "attachments", "linearize", "encryption"]);
    expect(planPostProcessing({ attachments: [], linearize: false }).steps).toEqual([]);
  });

  test("a signature is always the last step: after PDF/A, the e-invoice's attachment and the layers", () => {
    const plan = planPostProcessing({ signature: { identity_id: "i", timestamp: true }, pdfa: "3b", watermark: { text: "X" } });
    expect(plan.steps.map((s) => s.name)).toEqual(["watermark", "pdfa", "sign"]);
    expect(plan.steps.at(-1)!.params).toEqual({
      identityId: "i",
      timestamp: true,
      reason: undefined,
      location: undefined,
      contactInfo: undefined,
      visible: undefined,
    });
  });

  test("encryption planned without its passwords is a bug, not a PDF without protection", () => {
    expect(() => planPostProcessing({ encryption: {} })).toThrow();
  });
});

describe("postOptionProblems", () => {
  test("good options have none", () => {
    expect(
      postOptionProblems({ watermark: { text: "Entwurf – größer" }, attachments: [{ filename: "a b.xml", content_base64: "" }] }),
    ).toEqual([]);
  });
  test("each problem names its field", () => {
    const fields = postOptionProblems({
      watermark: { text: "下書き" },
      stamp: { image: { content_base64: "AAAA", mime_type: "image/jpeg" } },
      encryption: { user_password: "x", owner_password: "x" },
      attachments: [
        { filename: "a", content_base64: "@@" },
        { filename: "a", content_base64: "", mime_type: "text" },
      ],
    }).map((p) => p.field);
    expect(fields).toEqual([
      "options.watermark.text",
      "options.encryption.user_password",
      "options.stamp.position",
      "options.stamp.image.content_base64",
      "options.attachments[0].content_base64",
      "options.attachments[1].filename",
      "options.attachments[1].mime_type",
    ]);
  });
});

describe("PasswordSeal", () => {
  const seal = new PasswordSeal("a-server-secret-of-enough-length-000");
  test("opens for its report only, and not under another secret", () => {
    const s = seal.seal("r1", { user: "u", owner: "o" });
    expect(s).not.toContain('u"');
    expect(seal.open("r1", s)).toEqual({ user: "u", owner: "o" });
    expect(seal.open("r2", s)).toBeUndefined();
    expect(new PasswordSeal("another-secret-entirely-0000000000").open("r1", s)).toBeUndefined();
    expect(seal.open("r1", `${s.slice(0, -2)}AA`)).toBeUndefined();
  });
  test("two seals of the same passwords differ (random IV)", () => {
    expect(seal.seal("r1", { a: "b" })).not.toBe(seal.seal("r1", { a: "b" }));
  });
});

function poppler(pdf: Uint8Array, cmd: (f: string) => string[]) {
  const f = join(tmpdir(), `rg-unit-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(f, pdf);
  try {
    const p = Bun.spawnSync(cmd(f));
    return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
  } finally {
    rmSync(f, { force: true });
  }
}

describe("overlay PDFs", () => {
  for (const angle of [0, 45, -30, 90, 180])
    test(`a watermark at ${angle} degrees is a valid PDF whose text reads whole`, () => {
      const text = "Entwurf (Kopie) – 100 % \\ “€”";
      const pdf = watermarkPdf({ text, opacity: 0.3, angle }, { width: 612, height: 792 });
      expect(poppler(pdf, (f) => ["qpdf", "--check", f]).code).toBe(0);
      expect(poppler(pdf, (f) => ["pdftotext", "-enc", "UTF-8", f, "-"]).out).toContain(text);
      expect(firstPageSize(pdf)).toEqual({ width: 612, height: 792 });
    });

  test("a JPEG stamp is a valid PDF with one image of the JPEG's size", () => {
    const jpeg = Buffer.from(SMALL_JPEG_BASE64, "base64");
    const info = jpegSize(jpeg)!;
    expect(info).toEqual({ width: 12, height: 16, components: 3 });
    const pdf = jpegStampPdf(jpeg, info, 0.5);
    expect(poppler(pdf, (f) => ["qpdf", "--check", f]).code).toBe(0);
    expect(poppler(pdf, (f) => ["pdfimages", "-list", f]).out).toMatch(/\s12\s+16\s+rgb\s+3\s+8\s+jpeg/);
  });

  test("jpegSize refuses what is not a JPEG", () => {
    expect(jpegSize(Buffer.from("GIF89a"))).toBeUndefined();
    expect(jpegSize(Buffer.from([0xff, 0xd8, 0x00]))).toBeUndefined();
  });
});
