// barcode(), epcQr() and swissQrBill() end to end: an EJS template draws every symbology through the real
// service into a PDF (one symbol per page), poppler rasterises it at 300 dpi, and decoders that share
// nothing with bwip-js read each symbol back: Debian's zbarimg (QR, Code 128, EAN/UPC, GS1-128), Debian's
// dmtxread (Data Matrix, which zbar does not read) and ZXing (PDF417, which zbar does not read either, and
// the Swiss QR-bill's code: its cross covers the QR code's central alignment pattern, which zbar needs).
// The decoded text must equal the input. Bad input fails the report with a template error naming it.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from "@zxing/library";
import { generate, type TestApp, useRenderApp } from "../helpers/app";

setDefaultTimeout(120_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const EPC = {
  name: "Rotes Kreuz Zürich",
  iban: "DE89 3704 0044 0532 0130 00",
  bic: "COBADEFFXXX",
  amount: 1234.5,
  remittance: "Rechnung 2026-0042",
};
const SWISS = {
  iban: "CH44 3199 9123 0008 8901 2",
  creditor: { name: "Robert Schneider AG", street: "Rue du Lac", buildingNumber: "1268", postalCode: "2501", town: "Biel", country: "CH" },
  amount: 1949.75,
  currency: "CHF",
  debtor: {
    name: "Pia-Maria Rutschmann-Schnyder",
    street: "Grosse Marktgasse",
    buildingNumber: "28",
    postalCode: "9400",
    town: "Rorschach",
    country: "CH",
  },
  reference: "210000000003139471430009017",
  message: "Auftrag vom 15.06.2020",
};

/** The payloads as EPC069-12 and the SIX guidelines spell them for these fields (written out by hand). */
const EPC_PAYLOAD = "BCD\n002\n1\nSCT\nCOBADEFFXXX\nRotes Kreuz Zürich\nDE89370400440532013000\nEUR1234.50\n\n\nRechnung 2026-0042";
const SWISS_PAYLOAD = [
  ..."SPC 0200 1 CH4431999123000889012 S".split(" "),
  ...["Robert Schneider AG", "Rue du Lac", "1268", "2501", "Biel", "CH", "", "", "", "", "", "", "", "1949.75", "CHF", "S"],
  ...["Pia-Maria Rutschmann-Schnyder", "Grosse Marktgasse", "28", "9400", "Rorschach", "CH", "QRR", "210000000003139471430009017"],
  ...["Auftrag vom 15.06.2020", "EPD"],
].join("\n");

type Decoder = "zbar" | "dmtx" | "zxing-pdf417" | "zxing-qr";
/** One page each: the EJS call, the text the decoder must read, and which decoder reads it. */
const SYMBOLS: { name: string; call: string; decoder: Decoder; expected: string }[] = [
  {
    name: "qrcode",
    call: "barcode('qrcode', 'https://example.com/i/2026-0042?a=1&b=2', {ecLevel: 'Q'})",
    decoder: "zbar",
    expected: "https://example.com/i/2026-0042?a=1&b=2",
  },
  { name: "code128", call: "barcode('code128', 'RG-2026/0042 abc', {text: true})", decoder: "zbar", expected: "RG-2026/0042 abc" },
  { name: "ean13", call: "barcode('ean13', '5901234123457')", decoder: "zbar", expected: "5901234123457" },
  { name: "upca", call: "barcode('upca', '036000291452', {width: '50mm'})", decoder: "zbar", expected: "036000291452" },
  // GS1-128 starts with FNC1; fixed-length AIs need no separator, so the element string reads back as digits.
  {
    name: "gs1-128",
    call: "barcode('gs1-128', '(01)09521234543213(3103)000123')",
    decoder: "zbar",
    expected: "01095212345432133103000123",
  },
  {
    name: "datamatrix",
    call: "barcode('datamatrix', 'RG-2026-0042 Data Matrix', {width: '25mm'})",
    decoder: "dmtx",
    expected: "RG-2026-0042 Data Matrix",
  },
  {
    name: "pdf417",
    call: "barcode('pdf417', 'reportgen PDF417 2026-0042', {ecLevel: 4, width: '90mm'})",
    decoder: "zxing-pdf417",
    expected: "reportgen PDF417 2026-0042",
  },
  { name: "epcQr", call: `epcQr(${JSON.stringify(EPC)})`, decoder: "zbar", expected: EPC_PAYLOAD },
  { name: "swissQrBill", call: `swissQrBill(${JSON.stringify(SWISS)})`, decoder: "zxing-qr", expected: SWISS_PAYLOAD },
];

function run(cmd: string[]): string {
  const p = Bun.spawnSync(cmd);
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (${p.exitCode}): ${p.stderr.toString()}`);
  return new TextDecoder("utf-8", { fatal: true }).decode(p.stdout);
}

/** ZXing on a greyscale PGM page from pdftoppm -gray (binary P5, 8 bits). */
function zxing(pgm: string, format: BarcodeFormat): string {
  const bytes = readFileSync(pgm);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 50).toString("latin1"));
  if (!header) throw new Error("not an 8-bit PGM");
  const [w, h] = [Number(header[1]), Number(header[2])];
  const pixels = new Uint8ClampedArray(bytes.subarray(header[0].length, header[0].length + w * h));
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [format]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  return reader.decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(pixels, w, h))), hints).getText();
}

describe("barcodes drawn by templates decode to their input", () => {
  test("every type, through the service, rasterised at 300 dpi and read by an independent decoder", async () => {
    const pages = SYMBOLS.map((s) => `<section style="page-break-after: always; padding: 20mm"><p>${s.name}</p><%- ${s.call} %></section>`);
    const template = `<!doctype html><html><body style="margin:0">${pages.join("")}</body></html>`;
    const { report, pdf } = await generate(t, { engine: "ejs", html_template: template, data: {} });
    expect(report.error).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), "rg-barcodes-"));
    try {
      const file = join(dir, "r.pdf");
      await Bun.write(file, pdf!);
      if (process.env.KEEP_PDF) await Bun.write(process.env.KEEP_PDF, pdf!);
      const table: Record<string, boolean> = {};
      for (const [i, s] of SYMBOLS.entries()) {
        const page = String(i + 1);
        const want = s.expected;
        let got: string;
        if (s.decoder.startsWith("zxing")) {
          // The Swiss cross hides the QR code's central alignment pattern; ZXing finds the grid without it
          // at some resolutions and not others, so up to four are tried (each rendering is deterministic).
          const format = s.decoder === "zxing-qr" ? BarcodeFormat.QR_CODE : BarcodeFormat.PDF_417;
          got = "(not decoded)";
          for (const dpi of s.decoder === "zxing-qr" ? ["300", "400", "500", "600"] : ["300"]) {
            run(["pdftoppm", "-r", dpi, "-gray", "-f", page, "-l", page, "-singlefile", file, join(dir, `p${page}`)]);
            try {
              got = zxing(join(dir, `p${page}.pgm`), format);
              break;
            } catch {}
          }
        } else {
          run(["pdftoppm", "-r", "300", "-png", "-f", page, "-l", page, "-singlefile", file, join(dir, `p${page}`)]);
          const png = join(dir, `p${page}.png`);
          // zbar reports UPC-A as EAN-13 (a leading 0) unless asked to tell them apart; -Sbinary gives the
          // symbol's bytes as they are, where zbar would otherwise guess a QR code's character set.
          got =
            s.decoder === "zbar" ? run(["zbarimg", "-q", "--raw", "--nodbus", "-Sbinary", "-Supca.enable", png]) : run(["dmtxread", png]);
        }
        table[s.name] = got === want;
        expect({ type: s.name, decoded: got }).toEqual({ type: s.name, decoded: want });
      }
      console.log("decoded equal to input:", JSON.stringify(table));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a wrong EAN check digit, a bad IBAN, an unknown type or option fail the report, naming the problem", async () => {
    const cases: [string, RegExp][] = [
      ["<%- barcode('ean13', '5901234123458') %>", /barcode\("ean13"\): Incorrect EAN-13 check digit/],
      [
        `<%- epcQr(${JSON.stringify({ ...EPC, iban: "DE89 3704 0044 0532 0130 01" })}) %>`,
        /epcQr: iban "DE89 3704 0044 0532 0130 01" has a wrong check digit/,
      ],
      [
        `<%- swissQrBill(${JSON.stringify({ ...SWISS, reference: "210000000003139471430009018" })}) %>`,
        /swissQrBill: reference .* wrong check digit/,
      ],
      ["<%- barcode('qr', 'x') %>", /unknown barcode type \(known: qrcode/],
      ["<%- barcode('qrcode', 'x', {onload: 'alert(1)'}) %>", /unknown option "onload"/],
      ["<%- barcode('qrcode', 'x', {color: 'red\" onload=\"x'}) %>", /option color must be a colour written as #rrggbb/],
    ];
    for (const [template, message] of cases) {
      const { report } = await generate(t, { engine: "ejs", html_template: template, data: {} });
      expect(report.status).toBe("failed");
      expect(report.error.code).toBe("template_error");
      expect(report.error.message).toMatch(message);
    }
  });
});
