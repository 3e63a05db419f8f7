// The EPC069-12 and Swiss QR-bill payloads and their checks (src/render/payment-codes.ts), and barcode()'s
// option checks and SVG vetting (src/render/barcodes.ts): pure logic, against payloads written out by
// hand from the standards' own examples. tests/integration/barcodes.test.ts decodes the drawn symbols.
import { describe, expect, test } from "bun:test";
import { BarcodeError, barcodeSvg } from "../../src/render/barcodes";
import { checkIban, epcPayload, swissQrBillPayload } from "../../src/render/payment-codes";

describe("IBAN", () => {
  test("valid IBANs pass with spaces and lower case, and come back compact", () => {
    expect(checkIban("t", "de89 3704 0044 0532 0130 00")).toBe("DE89370400440532013000");
    expect(checkIban("t", "GB29NWBK60161331926819")).toBe("GB29NWBK60161331926819");
    expect(checkIban("t", "CH93 0076 2011 6238 5295 7")).toBe("CH9300762011623852957");
  });
  test("a wrong check digit, a wrong shape or a non-string is named", () => {
    expect(() => checkIban("epcQr", "DE89 3704 0044 0532 0130 01")).toThrow(
      /epcQr: iban "DE89 3704 0044 0532 0130 01" has a wrong check digit/,
    );
    expect(() => checkIban("epcQr", "DE89")).toThrow(/is not an IBAN/);
    expect(() => checkIban("epcQr", 12)).toThrow(/iban must be a string/);
  });
});

describe("EPC069-12 (GiroCode)", () => {
  const base = { name: "Red Cross of Belgium", iban: "BE72000000001616", bic: "BPOTBEB1", amount: 1, remittance: "Urgency fund" };
  test("the standard's example, and optional fields left out", () => {
    expect(epcPayload(base)).toBe("BCD\n002\n1\nSCT\nBPOTBEB1\nRed Cross of Belgium\nBE72000000001616\nEUR1.00\n\n\nUrgency fund");
    expect(epcPayload({ name: "A", iban: "BE72000000001616" })).toBe("BCD\n002\n1\nSCT\n\nA\nBE72000000001616");
    expect(epcPayload({ name: "A", iban: "BE72000000001616", amount: "12.5", reference: "RF18 5390 0754 7034", purpose: "gdds" })).toBe(
      "BCD\n002\n1\nSCT\n\nA\nBE72000000001616\nEUR12.50\nGDDS\nRF18539007547034",
    );
  });
  test("each bad field is refused with what is wrong", () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...base, currency: "USD" }, /currency must be "EUR"/],
      [{ ...base, name: undefined }, /name is required/],
      [{ ...base, name: "x".repeat(71) }, /name has 71 characters; at most 70/],
      [{ ...base, bic: "NOTABIC" }, /bic "NOTABIC" is not a BIC/],
      [{ ...base, amount: 0 }, /amount must be from 0.01/],
      [{ ...base, amount: 1.234 }, /at most two decimals/],
      [{ ...base, amount: 1e10 }, /amount must be from 0.01 to 999999999.99/],
      [{ ...base, remittance: undefined, reference: "RF00 1234" }, /not an ISO 11649 creditor reference/],
      [{ ...base, reference: "RF18539007547034" }, /either reference .* or remittance/],
      [{ ...base, remittance: "a\nb" }, /remittance must be one line/],
      [{ ...base, iabn: "x" }, /unknown field "iabn"/],
    ];
    for (const [fields, message] of bad) expect(() => epcPayload(fields)).toThrow(message);
  });
});

describe("Swiss QR-bill", () => {
  const creditor = {
    name: "Robert Schneider AG",
    street: "Rue du Lac",
    buildingNumber: "1268",
    postalCode: "2501",
    town: "Biel",
    country: "CH",
  };
  test("a QR-IBAN with a QRR reference, a plain IBAN with an RF reference or none", () => {
    const qrr = swissQrBillPayload({
      iban: "CH4431999123000889012",
      creditor,
      amount: 1949.75,
      reference: "21 00000 00003 13947 14300 09017",
    });
    expect(qrr.split("\n")).toEqual([
      ...["SPC", "0200", "1", "CH4431999123000889012", "S", "Robert Schneider AG", "Rue du Lac", "1268", "2501", "Biel", "CH"],
      ...["", "", "", "", "", "", "", "1949.75", "CHF", "", "", "", "", "", "", ""],
      ...["QRR", "210000000003139471430009017", "", "EPD"],
    ]);
    const scor = swissQrBillPayload({
      iban: "CH93 0076 2011 6238 5295 7",
      creditor,
      currency: "EUR",
      reference: "RF18539007547034",
      message: "Rechnung 7",
    });
    expect(scor).toContain("\nEUR\n");
    expect(scor.endsWith("\nSCOR\nRF18539007547034\nRechnung 7\nEPD")).toBe(true);
    expect(swissQrBillPayload({ iban: "CH9300762011623852957", creditor }).endsWith("\nNON\n\n\nEPD")).toBe(true);
  });
  test("references must fit the IBAN, and check", () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ iban: "CH4431999123000889012", creditor }, /a QR-IBAN needs a QR reference/],
      [{ iban: "CH4431999123000889012", creditor, reference: "210000000003139471430009018" }, /wrong check digit \(modulo 10, recursive\)/],
      [{ iban: "CH9300762011623852957", creditor, reference: "210000000003139471430009017" }, /needs a QR-IBAN/],
      [{ iban: "DE89370400440532013000", creditor }, /Swiss or Liechtenstein IBAN/],
      [{ iban: "CH9300762011623852957", creditor, currency: "USD" }, /currency must be "CHF" or "EUR"/],
      [{ iban: "CH9300762011623852957" }, /creditor is required/],
      [{ iban: "CH9300762011623852957", creditor: { ...creditor, country: "Schweiz" } }, /country has 7 characters/],
    ];
    for (const [fields, message] of bad) expect(() => swissQrBillPayload(fields)).toThrow(message);
  });
});

describe("barcode()", () => {
  test("draws an SVG of shapes only, sized in millimetres, with the requested width", () => {
    const svg = barcodeSvg("ean13", "5901234123457", undefined, "p-");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+" width="[\d.]+mm" height="[\d.]+mm"/);
    expect(svg.match(/<\w+/g)!.every((t) => ["<svg", "<path", "<rect"].includes(t))).toBe(true);
    expect(barcodeSvg("qrcode", "x", { width: "20mm" }, "p-")).toContain(' width="20mm" preserveAspectRatio');
    // Hostile text ends up as bars and glyph outlines, never as markup.
    const hostile = barcodeSvg("code128", `</svg><script>alert(1)</script>"'&`, { text: true }, "p-");
    expect(hostile.match(/<\w+/g)!.every((t) => ["<svg", "<path", "<rect"].includes(t))).toBe(true);
    expect(hostile).not.toMatch(/script|alert|&/);
    // The Swiss QR code's clip path gets an id unique to its page.
    expect(barcodeSvg("swissqrcode", "SPC", {}, "rg-bc7-")).toContain('id="rg-bc7-clip0"');
  });
  test("bad types, options and texts are template errors naming them", () => {
    const bad: [string, string, unknown, RegExp][] = [
      ["ean13", "5901234123458", undefined, /barcode\("ean13"\): Incorrect EAN-13 check digit provided/],
      ["upca", "12", undefined, /barcode\("upca"\): .*UPC-A/],
      ["nope", "1", undefined, /unknown barcode type/],
      ["qrcode", "", undefined, /the text is empty/],
      ["qrcode", "x".repeat(9000), undefined, /the limit is 8000/],
      ["qrcode", "x", { ecLevel: "Z" }, /ecLevel must be "L", "M", "Q" or "H"/],
      ["pdf417", "x", { ecLevel: 9 }, /from 0 to 8/],
      ["code128", "x", { ecLevel: "M" }, /no ecLevel option/],
      ["qrcode", "x", { width: "10vw" }, /CSS length/],
      ["qrcode", "x", { background: "url(#x)" }, /#rrggbb/],
      ["qrcode", "x", [], /options must be an object/],
    ];
    for (const [type, text, options, message] of bad) {
      let error: unknown;
      try {
        barcodeSvg(type, text, options, "p-");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BarcodeError);
      expect(String((error as Error).message)).toMatch(message);
    }
  });
});
